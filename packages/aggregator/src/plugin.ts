import { group } from '@kapi/api-apiregistration';
import type { GroupPlugin } from '@kapi/apiserver';
import { installAggregator, type AggregatorOptions } from './aggregator.js';
import { apiServicePrinter } from './apiservice/printer.js';
import { apiServiceStrategy } from './apiservice/strategy.js';

/**
 * API aggregation as a plugin (kube-aggregator wrapping the generic server): serves apiregistration.k8s.io/v1
 * APIServices, registers a Local one for every group version the server serves, and sends the group versions of
 * APIServices with a Service to the extension servers behind them, whose resources then show in discovery and
 * OpenAPI.
 */
export function aggregatorPlugin(options: AggregatorOptions = {}): GroupPlugin {
  return {
    definition: group,
    strategies: { APIService: apiServiceStrategy },
    printers: { APIService: apiServicePrinter },
    install(host) {
      const entry = host.registry.byKind('apiregistration.k8s.io', 'v1', 'APIService');
      if (!entry) throw new Error('aggregator: apiregistration.k8s.io/v1 APIService is not served');
      installAggregator(host, entry, options);
    },
  };
}
