/**
 * A payment held for Strong Customer Authentication, as the CLI reports it: its own exit code (9), the quote and
 * its challenge in the JSON line, and in text the command that finishes it, with the proof the factor takes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScaRequiredError } from '../../src/core/errors';
import { EXIT, reportError } from '../../src/cli/output';

const held = (factor: string) =>
  new ScaRequiredError(
    {
      id: 'Quote:019542f5-b3e7-1d02-0000-000000000006',
      status: 'PENDING_AUTHORIZATION',
      scaChallenge: { id: 'ScaChallenge:1', factor, availableFactors: [factor], expiresAt: '2025-10-03T12:05:00Z' },
    } as unknown as ConstructorParameters<typeof ScaRequiredError>[0],
    { operation: 'POST /quotes/{quoteId}/execute', requestId: 'req-1' },
  );

function capture(run: () => number): { code: number; text: string } {
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
  try {
    return { code: run(), text: written.join('') };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('a payment held for SCA, reported by the CLI', () => {
  it('exits 9 and prints the command that authorizes the quote with a code', () => {
    const { code, text } = capture(() => reportError(held('SMS_OTP'), false));
    expect(code).toBe(EXIT.scaRequired);
    expect(code).toBe(9);
    expect(text).toContain('ScaRequiredError: Quote Quote:019542f5-b3e7-1d02-0000-000000000006 needs Strong Customer Authentication');
    expect(text).toContain('request id: req-1');
    expect(text).toContain(
      'nothing has moved: the customer authenticates (SMS_OTP), then: crossborder quotes authorize Quote:019542f5-b3e7-1d02-0000-000000000006 --code CODE',
    );
  });

  it('a passkey challenge asks for the assertion and its origin, not a code', () => {
    const { text } = capture(() => reportError(held('PASSKEY'), false));
    expect(text).toContain('quotes authorize Quote:019542f5-b3e7-1d02-0000-000000000006 --passkey-assertion JSON --origin ORIGIN');
    expect(text).not.toContain('--code');
  });

  it('--json: one line with the quote id and its challenge', () => {
    const { code, text } = capture(() => reportError(held('SMS_OTP'), true));
    expect(code).toBe(9);
    expect(JSON.parse(text)).toMatchObject({
      error: 'ScaRequiredError',
      requestId: 'req-1',
      quoteId: 'Quote:019542f5-b3e7-1d02-0000-000000000006',
      scaChallenge: { id: 'ScaChallenge:1', factor: 'SMS_OTP', expiresAt: '2025-10-03T12:05:00Z' },
    });
  });
});
