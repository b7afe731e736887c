// @ts-nocheck
import { afterAll, describe, expect, it } from 'vitest';
import { sandbox } from '../../examples/guides/quickstart/client';
import { firstPayment } from '../../examples/guides/quickstart/first-payment';

describe('docs/quickstart.md', () => {
  afterAll(() => sandbox.close());

  it('makes a first payment that settles, and lists it', async () => {
    const lines: string[] = [];
    const payment = await firstPayment((line) => lines.push(line));
    expect(payment.status).toBe('COMPLETED');
    expect(lines[0]).toMatch(/^Quote:\S+: \d+\.\d{2} GBP for \$250\.00, PROCESSING$/);
    expect(lines[1]).toBe(`${payment.id}: COMPLETED`);
    expect(lines.slice(2)).toEqual([expect.stringMatching(/^OUTGOING COMPLETED \d+\.\d{2} GBP$/)]);
    expect(sandbox.state.snapshot().transactions).toHaveLength(1);
  });
});
