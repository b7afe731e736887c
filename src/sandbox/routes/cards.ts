/**
 * Cards (production's `/cards`: issue, list, read, update, reveal) and the sandbox's card simulations
 * (`/sandbox/cards/{id}/simulate/…`, answered 202 with the issuer transaction token); the rules are in
 * domain/cards.ts.
 * @module
 */
import type {
  CardCreateParams,
  CardUpdateParams,
  SandboxCardAuthorizationAdviceParams,
  SandboxCardAuthorizationParams,
  SandboxCardBalanceInquiryParams,
  SandboxCardClearingParams,
  SandboxCardReturnParams,
  SandboxCardTransactionRefParams,
} from '../../generated/types';
import {
  advise,
  authorize,
  balanceInquiry,
  clear,
  findCard,
  giveBack,
  issueCard,
  revealCard,
  reverseReturn,
  updateCard,
  type AuthorizationKind,
  type SimulationOutcome,
} from '../domain/cards';
import { zSandboxCardClearingParams } from '../../generated/zod.gen';
import type { Call, Handler } from '../domain/context';
import { paginate } from '../domain/pagination';
import { canonicalAccountId } from '../domain/payments';
import { ok } from '../domain/reply';
import { validate } from '../domain/validation';

const create: Handler = (ctx, call) => ok(issueCard(ctx, call.body as CardCreateParams), 201);

const list: Handler = (ctx, call) => {
  const q = call.query as {
    cardholderId?: string;
    accountId?: string;
    platformCardId?: string;
    state?: string;
    limit?: number;
    cursor?: string;
    sortOrder?: 'asc' | 'desc';
  };
  const account = q.accountId === undefined ? undefined : canonicalAccountId(q.accountId);
  const matches = [...ctx.world.cards.values()].filter(
    ({ data: c }) =>
      (q.cardholderId === undefined || c.cardholderId === q.cardholderId) &&
      (account === undefined || c.fundingSources.some((id) => canonicalAccountId(id) === account)) &&
      (q.platformCardId === undefined || c.platformCardId === q.platformCardId) &&
      (q.state === undefined || c.state === q.state),
  );
  return ok(paginate(matches, q, (c) => c.data));
};

const retrieve: Handler = (ctx, call) => ok(findCard(ctx, call.params.id!).data);

const update: Handler = (ctx, call) => ok(updateCard(ctx, call.params.id!, call.body as CardUpdateParams));

const reveal: Handler = (ctx, call) => ok(revealCard(ctx, call.params.id!));

/** A simulation's answer: 202 and the issuer transaction token, whatever the outcome (production decides later, by webhook). */
const accepted = (outcome: SimulationOutcome) => ok({ issuerTransactionToken: outcome.issuerTransactionToken }, 202);

const authorization =
  (kind: AuthorizationKind): Handler =>
  (ctx, call) =>
    accepted(authorize(ctx, call.params.id!, kind, call.body as SandboxCardAuthorizationParams));

/**
 * The clearing's body, by its schema alone: production's clearing takes an `amount` of 0 (the authorization's
 * expiry), which the sandbox's rule that money moves in positive amounts (domain/validation.ts) refuses
 * elsewhere. A body the schema refuses gets the usual 400.
 */
function clearingBody(call: Call): SandboxCardClearingParams {
  const parsed = zSandboxCardClearingParams.safeParse(call.json);
  return parsed.success ? parsed.data : (validate('body', zSandboxCardClearingParams, call.json) as SandboxCardClearingParams);
}

/** The card routes. */
export const cardRoutes = {
  createCard: create,
  listCards: list,
  getCardById: retrieve,
  updateCardById: update,
  revealCard: reveal,
  sandboxSimulateCardAuthorization: authorization('authorization'),
  sandboxSimulateCardCreditAuthorization: authorization('credit_authorization'),
  sandboxSimulateCardFinancialAuthorization: authorization('financial_authorization'),
  sandboxSimulateCardFinancialCreditAuthorization: authorization('financial_credit_authorization'),
  sandboxSimulateCardCreditAuthorizationAdvice: authorization('credit_authorization_advice'),
  sandboxSimulateCardBalanceInquiry: (ctx, call) => accepted(balanceInquiry(ctx, call.params.id!, (call.body as SandboxCardBalanceInquiryParams).merchant)),
  sandboxSimulateCardClearing: { run: (ctx, call) => accepted(clear(ctx, call.params.id!, clearingBody(call))), validateBody: false },
  sandboxSimulateCardReturn: (ctx, call) => accepted(giveBack(ctx, call.params.id!, call.body as SandboxCardReturnParams)),
  sandboxSimulateCardAuthorizationAdvice: (ctx, call) => accepted(advise(ctx, call.params.id!, call.body as SandboxCardAuthorizationAdviceParams)),
  sandboxSimulateCardReturnReversal: (ctx, call) =>
    accepted(reverseReturn(ctx, call.params.id!, (call.body as SandboxCardTransactionRefParams).cardTransactionId)),
} satisfies Record<string, Handler | { run: Handler; validateBody: false }>;
