#!/usr/bin/env node
// guestbook-operator [--kubeconfig FILE] [--context NAME] [--namespace NS] [--install-crd] [--leader-elect]
// Runs the Guestbook operator against any Kubernetes API server: the kubeconfig's (or $KUBECONFIG's), or the
// cluster's own when it runs in a pod.
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { apps } from '@kapi/api-apps/client';
import { core } from '@kapi/api-core/client';
import { createClient, inClusterConfig, loadKubeconfig, runLeaderElection, type LeaderElection } from '@kapi/client';
import { installGuestbookCRD } from './install.js';
import { createGuestbookOperator } from './operator.js';

const USAGE = `Usage: guestbook-operator [--kubeconfig FILE] [--context NAME] [--namespace NS] [--install-crd] [--leader-elect]
  --kubeconfig        the kubeconfig (default $KUBECONFIG, ~/.kube/config, or the pod's service account in a cluster)
  --namespace         reconcile guestbooks in this namespace only (default: all)
  --install-crd       create the Guestbook CustomResourceDefinition if missing
  --leader-elect      run only while holding the Lease kube-system/guestbook-operator (for several replicas)`;

const { values: flags } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    namespace: { type: 'string' },
    'install-crd': { type: 'boolean' },
    'leader-elect': { type: 'boolean' },
    'leader-election-namespace': { type: 'string', default: 'kube-system' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}

const config =
  flags.kubeconfig || process.env.KUBECONFIG || !process.env.KUBERNETES_SERVICE_HOST
    ? loadKubeconfig({ path: flags.kubeconfig, context: flags.context })
    : inClusterConfig();
const client = createClient(config, { core, apps });
if (flags['install-crd']) await installGuestbookCRD(client);

const operator = createGuestbookOperator({ client, namespace: flags.namespace, onError: (e) => console.error('reconcile failed:', e) });
let election: LeaderElection | undefined;
let shuttingDown = false;
if (flags['leader-elect']) {
  election = runLeaderElection({
    client,
    namespace: flags['leader-election-namespace']!,
    name: 'guestbook-operator',
    identity: `${hostname()}-${process.pid}`,
    onStartedLeading: async () => {
      console.log('leading: starting the operator');
      await operator.start();
    },
    onStoppedLeading: () => {
      if (shuttingDown) return;
      console.error('lost the lease: exiting');
      process.exit(1);
    },
  });
} else {
  await operator.start();
  console.log(`guestbook-operator: watching guestbooks${flags.namespace ? ` in ${flags.namespace}` : ''} on ${config.server}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    shuttingDown = true;
    await election?.stop();
    await operator.stop();
    await client.close();
    process.exit(0);
  });
}
