import { ScaRequiredError, type Crossborder, type Quote, type ScaAuthorization, type ScaChallenge } from 'crossborder-sdk';

/** The customer's proof of one challenge: the SMS code they read, or their passkey's assertion and its origin. */
export type AskCustomer = (challenge: ScaChallenge) => Promise<ScaAuthorization>;

/**
 * Executes a quote. For a customer of a region where SCA is required (the EU) the service holds the payment:
 * the SDK raises ScaRequiredError naming the quote and the challenge, the customer proves it, and each
 * authorization either releases the payment or names the next challenge (a flow may need several).
 */
export async function executeWithSca(cb: Crossborder, quoteId: string, askCustomer: AskCustomer): Promise<Quote> {
  let held: ScaRequiredError;
  try {
    return await cb.quotes.execute(quoteId);
  } catch (err) {
    if (!(err instanceof ScaRequiredError)) throw err;
    held = err;
  }
  for (let step = 0; step < 5; step++) {
    try {
      return await cb.quotes.authorize(held.quoteId, await askCustomer(held.challenge));
    } catch (err) {
      if (!(err instanceof ScaRequiredError)) throw err;
      held = err; // the next challenge of the same payment
    }
  }
  throw new Error(`Quote ${quoteId}: still waiting for authorization after 5 challenges`);
}

/** Opens the customer's SCA session by SMS (authorizing a payment needs one): the code goes to their verified phone. */
export async function openScaSession(cb: Crossborder, customerId: string, smsCode: () => Promise<string>, endUserIpAddress: string) {
  const start = await cb.sca.login.start(customerId, { factor: 'SMS_OTP' });
  return cb.sca.login.complete(customerId, { factor: 'SMS_OTP', challengeId: start.challengeId, code: await smsCode(), endUserIpAddress });
}

/** Trusts a beneficiary, so that later payments to it skip the per-payment challenge. */
export async function trustBeneficiary(cb: Crossborder, externalAccountId: string, smsCode: () => Promise<string>): Promise<boolean> {
  const { scaChallenge } = await cb.externalAccounts.trust(externalAccountId);
  const { trusted } = await cb.externalAccounts.confirmTrust(externalAccountId, { challengeId: scaChallenge?.id, code: await smsCode() });
  return trusted;
}
