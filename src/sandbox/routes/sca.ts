/**
 * Strong Customer Authentication (production's `/sca/…`, the beneficiary trust calls, a quote's authorization) and
 * contact verification (`/customers/{customerId}/verify-*`) over domain/sca.ts.
 * @module
 */
import type {
  BeneficiaryTrustConfirmParams,
  ContactVerificationConfirmParams,
  ScaAuthorization,
  ScaFactorConfirmParams,
  ScaFactorEnrollParams,
  ScaLoginCompleteParams,
  ScaLoginStartParams,
  SecurityEventParams,
  TwoFactorResetCompleteParams,
  TwoFactorResetStartParams,
} from '../../generated/types';
import type { Handler } from '../domain/context';
import { ok } from '../domain/reply';
import {
  authorizeQuote,
  completeLogin,
  completeReset,
  confirmContactCode,
  confirmEnrollment,
  confirmTrust,
  deleteFactor,
  listFactors,
  recordEvent,
  resendQuoteCode,
  resetStatus,
  sendContactCode,
  startEnrollment,
  startLogin,
  startReset,
  startTrust,
} from '../domain/sca';
import { findQuote, releaseQuote } from './quotes';

const customerOf = (call: { query: Record<string, unknown> }) => call.query.customerId as string;
const none = { status: 204 } as const;

/** The SCA and contact verification routes. */
export const scaRoutes = {
  sendCustomerEmailVerification: (ctx, call) => (sendContactCode(ctx, call.params.customerId!, 'email'), none),
  confirmCustomerEmailVerification: (ctx, call) =>
    ok(confirmContactCode(ctx, call.params.customerId!, 'email', (call.body as ContactVerificationConfirmParams).code)),
  sendCustomerPhoneVerification: (ctx, call) => (sendContactCode(ctx, call.params.customerId!, 'phone'), none),
  confirmCustomerPhoneVerification: (ctx, call) =>
    ok(confirmContactCode(ctx, call.params.customerId!, 'phone', (call.body as ContactVerificationConfirmParams).code)),
  listScaFactors: (ctx, call) => ok(listFactors(ctx, customerOf(call))),
  startScaFactorEnrollment: (ctx, call) => ok(startEnrollment(ctx, customerOf(call), call.body as ScaFactorEnrollParams)),
  confirmScaFactorEnrollment: (ctx, call) => ok(confirmEnrollment(ctx, customerOf(call), call.body as ScaFactorConfirmParams)),
  deleteScaFactor: (ctx, call) => (deleteFactor(ctx, customerOf(call), call.params.credentialId!), none),
  startScaLogin: (ctx, call) => ok(startLogin(ctx, customerOf(call), (call.body as ScaLoginStartParams).factor)),
  completeScaLogin: (ctx, call) => ok(completeLogin(ctx, customerOf(call), call.body as ScaLoginCompleteParams)),
  recordSecurityEvent: (ctx, call) => ok(recordEvent(ctx, customerOf(call), (call.body as SecurityEventParams).eventType)),
  startTwoFactorReset: (ctx, call) => ok(startReset(ctx, customerOf(call), (call.body as TwoFactorResetStartParams).factor), 201),
  getTwoFactorResetStatus: (ctx, call) => ok(resetStatus(ctx, customerOf(call), call.params.resetId!)),
  completeTwoFactorReset: (ctx, call) => (
    completeReset(ctx, customerOf(call), call.params.resetId!, call.body as TwoFactorResetCompleteParams | undefined),
    none
  ),
  startBeneficiaryTrust: (ctx, call) => ok(startTrust(ctx, call.params.externalAccountId!, 'trust')),
  confirmBeneficiaryTrust: (ctx, call) => ok(confirmTrust(ctx, call.params.externalAccountId!, 'trust', call.body as BeneficiaryTrustConfirmParams)),
  startBeneficiaryUntrust: (ctx, call) => ok(startTrust(ctx, call.params.externalAccountId!, 'untrust')),
  confirmBeneficiaryUntrust: (ctx, call) => ok(confirmTrust(ctx, call.params.externalAccountId!, 'untrust', call.body as BeneficiaryTrustConfirmParams)),
  authorizeQuote: (ctx, call) => {
    const quote = findQuote(ctx, call.params.quoteId!);
    return ok(authorizeQuote(ctx, quote, call.body as ScaAuthorization, () => releaseQuote(ctx, quote)));
  },
  resendQuoteScaCode: (ctx, call) => (resendQuoteCode(ctx, findQuote(ctx, call.params.quoteId!)), none),
} satisfies Record<string, Handler>;
