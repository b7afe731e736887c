/**
 * The secure OTP login (production's form of EMAIL_OTP and SMS_OTP), on the built-in local sandbox.
 * Two roles share this process: the platform's backend (holds the API credentials, calls the service)
 * and the user's device (seals the code, holds the session key, signs). The code the user types never
 * reaches the backend: only the sealed bundle, the challenge and the signature travel between them.
 *
 *   npx tsx examples/wallet-otp-login.ts
 *
 * 1. Backend: register an EMAIL_OTP credential; the answer carries the signed otpEncryptionTargetBundle.
 * 2. Device: check the bundle's signature, seal the code with a fresh key pair's public key.
 * 3. Backend: /verify answers 202 (relay mode: SignatureRequiredError); the device signs the
 *    verification token with that key pair; the backend repeats the call with { signature, requestId }.
 * 4. Device: the session's key is the login key pair. It signs a wallet action (signer mode).
 * 5. SMS_OTP: the same login, in signer mode (backend and device in one process), after /challenge.
 */
import { Crossborder, SignatureRequiredError } from 'crossborder-sdk';
import { createSandbox, MAGIC } from 'crossborder-sdk/sandbox';
import { createOtpLogin, LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY, type OtpLogin } from 'crossborder-sdk/wallet';

// Against production, leave signerPublicKey out: PRODUCTION_OTP_SIGNER_PUBLIC_KEY is the default.
const signerPublicKey = LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY;

export async function main(print: (line: string) => void = console.log): Promise<void> {
  const sandbox = createSandbox();
  const cb = new Crossborder({ tokenId: 'demo', clientSecret: 'demo', environment: 'sandbox', fetch: sandbox.fetch });
  try {
    const customer = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      region: 'US',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
    });
    const {
      data: [account],
    } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
    if (!account) throw new Error('the sandbox opened no account');
    const walletId = account.id.replace(/^InternalAccount:/, 'EmbeddedWallet:');

    // 1. Backend: the code is sent; the answer says where the device must seal it.
    const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
    if (!credential.otpEncryptionTargetBundle) throw new Error('no otpEncryptionTargetBundle: use the code-and-clientPublicKey form');
    print(`credential ${credential.type} ${credential.id} (target bundle signed by the enclave)`);

    // 2. Device: the user types the code (the sandbox's is 000000); it is sealed, never sent as is.
    const login: OtpLogin = await createOtpLogin({ otpEncryptionTargetBundle: credential.otpEncryptionTargetBundle, otpCode: MAGIC.otp, signerPublicKey });
    const body = login.body('EMAIL_OTP');
    print(`sealed     ${Object.keys(JSON.parse(body.encryptedOtpBundle) as object).join(' + ')} for key ${login.publicKey.slice(0, 10)}…`);

    // 3. Backend: the first leg answers 202; relay the verification token to the device and back.
    let answer;
    try {
      answer = await cb.auth.credentials.verify(credential.id, body);
    } catch (err) {
      if (!(err instanceof SignatureRequiredError)) throw err;
      print(`challenge  ${err.challenge.requestId} (verification token) relayed to the device`);
      const signature = await login.signer(err.challenge); // on the device
      answer = await cb.auth.credentials.verify(credential.id, body, { signature, requestId: err.challenge.requestId });
    }

    // 4. Device: the session key is the login key pair; nothing was sealed to open.
    const session = await login.session(answer, credential.id);
    print(`session    ${session.id} (${answer.type}) key ${session.publicKey === login.publicKey ? 'is the login key pair' : 'differs'}`);
    const updated = await cb.internalAccounts.update(walletId, { privateEnabled: true }, { signer: session.signer });
    print(`wallet     privateEnabled=${String(updated.privateEnabled)}, signed by the OTP session`);

    // 5. SMS_OTP (added with a signature of that session), then a fresh code and a login in signer mode.
    const sms = await cb.auth.credentials.create({ type: 'SMS_OTP', accountId: walletId, phoneNumber: '+14155550123' }, { signer: session.signer });
    sandbox.clock.advance(31_000); // one code per 30 seconds
    const resent = await cb.auth.credentials.challenge(sms.id); // no clientPublicKey for OTP credentials
    if (!('otpEncryptionTargetBundle' in resent) || !resent.otpEncryptionTargetBundle) throw new Error('no target bundle');
    const smsLogin = await createOtpLogin({ otpEncryptionTargetBundle: resent.otpEncryptionTargetBundle, otpCode: MAGIC.otp, signerPublicKey });
    const smsAnswer = await cb.auth.credentials.verify(sms.id, smsLogin.body('SMS_OTP'), { signer: smsLogin.signer });
    const smsSession = await smsLogin.session(smsAnswer, sms.id);
    print(`session    ${smsSession.id} (${smsAnswer.type}) in signer mode`);

    const { data: sessions } = await cb.auth.sessions.list({ accountId: walletId });
    print(`wallet     ${sessions.map((s) => s.type).join(' + ')} sessions`);
  } finally {
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
