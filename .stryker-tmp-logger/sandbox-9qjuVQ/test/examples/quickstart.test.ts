// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { quickstart } from '../../examples/quickstart';

describe('examples/quickstart.ts (npm run demo)', () => {
  it('runs end to end on the in-process sandbox and prints the transcript', async () => {
    const lines: string[] = [];
    await quickstart((line) => lines.push(line));
    const text = lines.join('\n');
    expect(text).toMatch(/^customer\s+Customer:\S+\s+\$\S+@/m);
    expect(text).toMatch(/^funded\s+InternalAccount:\S+\s+balance 1000\.00 USD$/m);
    expect(text).toMatch(/^quote\s+Quote:\S+\s+250\.00 USD → \d+\.\d{2} GBP at [\d.]+ \(fees \d+\.\d{2}\) → PROCESSING$/m);
    expect(text).toMatch(/^payment\s+Transaction:\S+\s+COMPLETED$/m);
    expect(text).toMatch(/^incoming\s+Transaction:\S+\s+COMPLETED$/m);
    expect(lines.filter((l) => l.startsWith('  · '))).toHaveLength(2);
    expect(text).toMatch(/^wallet\s+PASSKEY AuthMethod:\S+\s+added through the signed retry$/m);
    expect(text).toMatch(/^webhooks\s+[1-9]\d* verified: .*OUTGOING_PAYMENT\.COMPLETED/m);
  });
});
