// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/wallet-passkey-relay';

describe('examples/wallet-passkey-relay.ts', () => {
  it('onboards a wallet: EMAIL_OTP session, passkey through the relay, passkey session', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    expect(lines).toEqual([
      expect.stringMatching(/^credential EMAIL_OTP AuthMethod:\S+$/),
      expect.stringMatching(/^session {4}Session:\S+ \(EMAIL_OTP\) until \S+Z$/),
      expect.stringMatching(/^challenge {2}\S+ relayed to the device \(expires \S+Z\)$/),
      expect.stringMatching(/^credential PASSKEY AuthMethod:\S+ registered through the relay$/),
      expect.stringMatching(/^session {4}Session:\S+ \(PASSKEY\) until \S+Z$/),
      'wallet     EMAIL_OTP + PASSKEY; 2 sessions',
    ]);
  });
});
