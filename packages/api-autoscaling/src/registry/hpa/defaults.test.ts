import { describe, expect, it } from 'vitest';
import { hpaBehaviorDefaulter } from './defaults.js';

describe('SetDefaults_HorizontalPodAutoscalerBehavior', () => {
  it('fills each left-out rule from kube defaults, keeps what is set (an empty policy list too), in kube field order', () => {
    const behavior: Record<string, unknown> = { scaleDown: { policies: [], stabilizationWindowSeconds: 30 } };
    hpaBehaviorDefaulter(behavior);
    expect(JSON.stringify(behavior)).toBe(
      JSON.stringify({
        scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
        scaleDown: { stabilizationWindowSeconds: 30, selectPolicy: 'Max', policies: [] },
      }),
    );
    const empty: Record<string, unknown> = {};
    hpaBehaviorDefaulter(empty);
    expect(empty.scaleDown).toEqual({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });
  });
});
