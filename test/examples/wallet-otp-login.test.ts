import { describe, expect, it } from 'vitest';
import { main } from '../../examples/wallet-otp-login';

describe('examples/wallet-otp-login.ts', () => {
  it('secure OTP login: sealed code, relayed verification token, session held by the login key; SMS_OTP in signer mode', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    expect(lines).toEqual([
      expect.stringMatching(/^credential EMAIL_OTP AuthMethod:\S+ \(target bundle signed by the enclave\)$/),
      expect.stringMatching(/^sealed {5}encappedPublic \+ ciphertext for key 0[23][0-9a-f]{8}…$/),
      expect.stringMatching(/^challenge {2}\S+ \(verification token\) relayed to the device$/),
      expect.stringMatching(/^session {4}Session:\S+ \(EMAIL_OTP\) key is the login key pair$/),
      'wallet     privateEnabled=true, signed by the OTP session',
      expect.stringMatching(/^session {4}Session:\S+ \(SMS_OTP\) in signer mode$/),
      'wallet     EMAIL_OTP + SMS_OTP sessions',
    ]);
  });
});
