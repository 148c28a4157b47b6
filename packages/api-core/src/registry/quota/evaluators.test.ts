import { describe, expect, it } from 'vitest';
import { roundUpWhole } from '../quantity.js';
import { claimEvaluator, podEvaluator } from './evaluators.js';

describe('quota evaluators (kube 1.33 pkg/quota/v1/evaluator/core)', () => {
  it('rounds storage up to whole bytes in its own format, as Quantity.RoundUp(0)', () => {
    expect(roundUpWhole('1500m')).toBe('2');
    expect(roundUpWhole('1Gi')).toBe('1Gi');
    expect(roundUpWhole('2500m')).toBe('3');
    expect(roundUpWhole('1e3')).toBe('1e3');
  });

  it("charges a claim to its beta storage-class annotation first, with the larger of asked and allocated storage", () => {
    const claim = (spec: object, status?: object, annotations?: Record<string, string>) => ({ metadata: { name: 'c', annotations }, spec, status });
    expect(claimEvaluator.usage(claim({ storageClassName: 'fast', resources: { requests: { storage: '1500m' } } }, undefined, { 'volume.beta.kubernetes.io/storage-class': 'slow' }))).toEqual({
      'count/persistentvolumeclaims': '1',
      persistentvolumeclaims: '1',
      'slow.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'requests.storage': '2',
      'slow.storageclass.storage.k8s.io/requests.storage': '2',
    });
    const grown = claimEvaluator.usage(claim({ resources: { requests: { storage: '1Gi' } } }, { allocatedResources: { storage: '3Gi' } }));
    expect(grown['requests.storage']).toBe('3Gi');
    const asked = claimEvaluator.usage(claim({ resources: { requests: { storage: '5Gi' } } }, { allocatedResources: { storage: '3Gi' } }));
    expect(asked['requests.storage']).toBe('5Gi');
    // Allocated storage alone, without a request, charges none (kube starts from the request).
    expect(claimEvaluator.usage(claim({}, { allocatedResources: { storage: '3Gi' } }))['requests.storage']).toBeUndefined();
  });

  it("counts a sidecar's status resources but a regular init container's spec only", () => {
    const pod = {
      metadata: { name: 'p' },
      spec: {
        initContainers: [
          { name: 'side', restartPolicy: 'Always', resources: { requests: { cpu: '1' } } },
          { name: 'init', resources: { requests: { cpu: '100m' } } },
        ],
        containers: [{ name: 'app', resources: { requests: { memory: '1Gi' } } }],
      },
      status: {
        phase: 'Running',
        initContainerStatuses: [
          { name: 'side', resources: { requests: { cpu: '2' } } },
          { name: 'init', resources: { requests: { cpu: '4' } } },
        ],
        containerStatuses: [{ name: 'app', resources: { requests: { memory: '512Mi' } }, allocatedResources: { memory: '2Gi' } }],
      },
    };
    const used = podEvaluator.usage(pod);
    // The sidecar runs with 2, the init container asks 100m beside it (its status's 4 is not read): 2100m.
    expect(used['requests.cpu']).toBe('2100m');
    expect(used['requests.memory']).toBe('2Gi');
  });
});
