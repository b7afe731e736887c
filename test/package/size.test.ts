/** Bundle-size ceilings (scripts/bench/budget.ts): fails when the bundles grow beyond them. */
import { describe, expect, it } from 'vitest';
import { SIZE_BUDGET } from '../../scripts/bench/budget';
import { benchSize } from '../../scripts/bench/size';

describe('bundle size', () => {
  it('stays within the budget', { timeout: 60_000 }, async () => {
    const [client, wallet] = await benchSize();
    console.log(
      `[size] call ${client!.callGzip} B (ceiling ${SIZE_BUDGET.call}), import ${client!.importGzip} B (ceiling ${SIZE_BUDGET.importOnly}), wallet ${wallet!.callGzip} B (ceiling ${SIZE_BUDGET.wallet})`,
    );
    expect(client!.callGzip).toBeLessThanOrEqual(SIZE_BUDGET.call);
    expect(client!.importGzip).toBeLessThanOrEqual(SIZE_BUDGET.importOnly);
    expect(wallet!.callGzip).toBeLessThanOrEqual(SIZE_BUDGET.wallet);
    // The call path must not pull in what only webhook handling needs.
    expect(client!.top.some(([input]) => input.startsWith('src/webhooks/'))).toBe(false);
  });
});
