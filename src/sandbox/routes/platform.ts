/**
 * Platform configuration, the platform's internal accounts, invitations, verifications, the UMA provider
 * directory and the sandbox's test webhook.
 * @module
 */
import type { Invitation, InvitationCreateParams, PlatformConfigUpdateParams } from '../../generated/types';
import { now, nowIso, type Ctx, type Handler } from '../domain/context';
import { providerFields } from '../domain/config';
import { CURRENCIES, currencyObject } from '../domain/currencies';
import { SandboxError, invalidInput } from '../domain/errors';
import { platformInternalAccounts } from '../domain/finders';
import { testEventData } from '../domain/webhooks';
import { ok } from '../serve/http';
import { paginate } from '../domain/pagination';
import { PROVIDERS } from '../domain/providers';
import { isUmaAddress } from '../domain/uma';

const getConfig: Handler = (ctx) => ok(ctx.world.config);

const updateConfig: Handler = (ctx, call) => {
  const body = call.body as PlatformConfigUpdateParams;
  const config = ctx.world.config;
  if (body.supportedCurrencies) {
    const seen = new Set<string>();
    body.supportedCurrencies.forEach((c, i) => {
      if (!CURRENCIES.has(c.currencyCode)) {
        throw new SandboxError(400, 'INVALID_CURRENCY', `The sandbox cannot hold ${c.currencyCode}.`, {
          field: `supportedCurrencies.${i}.currencyCode`,
          knownCurrencies: [...CURRENCIES.keys()],
        });
      }
      if (seen.has(c.currencyCode)) throw invalidInput(`supportedCurrencies.${i}.currencyCode`, `${c.currencyCode} is listed twice.`);
      seen.add(c.currencyCode);
      if (c.minAmount !== undefined && c.maxAmount !== undefined && c.minAmount > c.maxAmount) {
        throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `minAmount ${c.minAmount} is above maxAmount ${c.maxAmount}.`, { field: `supportedCurrencies.${i}.minAmount` });
      }
    });
  }
  if (body.umaDomain !== undefined && !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(body.umaDomain)) {
    throw invalidInput('umaDomain', `${body.umaDomain} is not a domain name.`);
  }
  if (body.webhookEndpoint !== undefined && !/^https?:\/\//i.test(body.webhookEndpoint)) {
    throw invalidInput('webhookEndpoint', 'webhookEndpoint must be an http(s) URL.');
  }
  if (body.umaDomain !== undefined) config.umaDomain = body.umaDomain;
  if (body.webhookEndpoint !== undefined) config.webhookEndpoint = body.webhookEndpoint;
  if (body.supportedCurrencies) {
    // The provider-required fields are outputs: computed here, whatever the request said.
    config.supportedCurrencies = body.supportedCurrencies.map((c) => ({ ...c, ...providerFields(c.currencyCode) }));
  }
  config.updatedAt = nowIso(ctx);
  return ok(config);
};

const createInvitation: Handler = (ctx, call) => {
  const body = call.body as InvitationCreateParams;
  if (!isUmaAddress(body.inviterUma)) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${body.inviterUma} is not an UMA address.`, { field: 'inviterUma' });
  }
  const inviter = [...ctx.world.customers.values()].find(
    (c) => !c.data.isDeleted && c.data.umaAddress.toLowerCase() === body.inviterUma.toLowerCase(),
  );
  if (!inviter) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${body.inviterUma} is not the UMA address of a customer of this platform.`, { field: 'inviterUma' });
  }
  const expiresMs = body.expiresAt === undefined ? undefined : Date.parse(body.expiresAt);
  if (expiresMs !== undefined && expiresMs <= now(ctx)) throw invalidInput('expiresAt', 'expiresAt must be in the future.');
  const code = `INV-${ctx.random.pick('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 6)}`;
  const currency = inviter.data.currencies?.find((c) => CURRENCIES.has(c)) ?? 'USD';
  const data: Invitation = {
    code,
    createdAt: nowIso(ctx),
    url: `https://${ctx.world.config.umaDomain}/invite/${code}`,
    inviterUma: inviter.data.umaAddress,
    status: 'PENDING',
    ...(body.expiresAt !== undefined ? { expiresAt: body.expiresAt } : {}),
    ...(body.firstName !== undefined ? { firstName: body.firstName } : {}),
    ...(body.amountToSend !== undefined ? { amountToSend: { amount: body.amountToSend, currency: currencyObject(currency) } } : {}),
  };
  const { seq } = ctx.ids.next('Invitation');
  ctx.world.invitations.set(code, { seq, createdMs: now(ctx), data });
  if (expiresMs !== undefined) {
    const world = ctx.world;
    ctx.scheduler.at(expiresMs, () => {
      if (ctx.world === world && data.status === 'PENDING') data.status = 'EXPIRED';
    });
  }
  return ok(data);
};

/**
 * Claims an invitation as its invitee would (there is no API for it) and sends INVITATION.CLAIMED.
 * Throws when the code is unknown or the invitation is no longer PENDING.
 */
export function claimInvitation(ctx: Ctx, code: string, inviteeUma?: string): Invitation {
  ctx.scheduler.runDue();
  const rec = ctx.world.invitations.get(code);
  if (!rec) throw new Error(`no invitation with code ${code}`);
  if (rec.data.status !== 'PENDING') throw new Error(`invitation ${code} is ${rec.data.status}, not PENDING`);
  if (inviteeUma !== undefined && !isUmaAddress(inviteeUma)) throw new Error(`${inviteeUma} is not an UMA address`);
  rec.data.status = 'CLAIMED';
  rec.data.claimedAt = nowIso(ctx);
  rec.data.inviteeUma = inviteeUma ?? `$${(rec.data.firstName ?? 'invitee').toLowerCase().replace(/[^a-z0-9]+/g, '.')}@wallet.example`;
  ctx.webhooks.emit('INVITATION.CLAIMED', rec.data);
  return structuredClone(rec.data);
}

const listVerifications: Handler = (ctx, call) => {
  const q = call.query as { customerId?: string; verificationStatus?: string; limit?: number; cursor?: string };
  const matches = [...ctx.world.verifications.values()].filter(({ data: v }) => {
    if (ctx.world.customers.get(v.customerId)?.data.isDeleted) return false;
    return (q.customerId === undefined || v.customerId === q.customerId) && (q.verificationStatus === undefined || v.verificationStatus === q.verificationStatus);
  });
  return ok(paginate(matches, q, (v) => v.data));
};

const listUmaProviders: Handler = (_ctx, call) => {
  const q = call.query as { countryCode?: string; currencyCode?: string; hasBlockedProviders?: boolean; limit?: number; cursor?: string; sortOrder?: 'asc' | 'desc' };
  const matches = PROVIDERS.filter(({ data: p }) => {
    if (q.hasBlockedProviders === false && !p.allowListStatus) return false;
    if (q.countryCode !== undefined && !p.supportedRegions?.includes(q.countryCode)) return false;
    return q.currencyCode === undefined || (p.supportedCurrencies ?? []).some((c) => c.code === q.currencyCode);
  });
  return ok(paginate(matches, q, (p) => p.data));
};

/** The platform's own internal accounts (seeded one per currency), by `currency` and `type`; not paginated, as production. */
const listPlatformInternal: Handler = (ctx, call) => {
  const q = call.query as { currency?: string; type?: string };
  const data = platformInternalAccounts(ctx)
    .filter((a) => (q.currency === undefined || a.currency === q.currency) && (q.type === undefined || a.data.type === q.type))
    .map((a) => a.data);
  return ok({ data });
};

/**
 * Sends a TEST webhook to the configured endpoint and answers its answer (production's names:
 * `response_status`, `response_body`); 400 when there is no endpoint or the delivery failed.
 */
const sendTestWebhook: Handler = async (ctx) => {
  if (!ctx.world.config.webhookEndpoint) {
    throw new SandboxError(400, 'WEBHOOK_ENDPOINT_NOT_SET', 'No webhookEndpoint is configured (PATCH /config): there is nowhere to send the test webhook.', { field: 'webhookEndpoint' });
  }
  const attempt = await ctx.webhooks.test(testEventData());
  if (!attempt || attempt.status === undefined || attempt.status < 200 || attempt.status >= 300) {
    throw new SandboxError(400, 'WEBHOOK_DELIVERY_ERROR', `The test webhook to ${ctx.world.config.webhookEndpoint} failed: ${attempt?.error ?? `answered ${attempt?.status}`}.`, {
      url: ctx.world.config.webhookEndpoint,
      ...(attempt?.status !== undefined ? { response_status: attempt.status } : {}),
    });
  }
  return ok({ url: attempt.url, response_status: attempt.status, response_body: attempt.response ?? '' });
};

/** The platform routes. */
export const platformRoutes = {
  getConfig,
  updateConfig,
  createInvitation,
  listVerifications,
  listUmaProviders,
  listPlatformInternalAccounts: listPlatformInternal,
  sendTestWebhook,
} satisfies Record<string, Handler>;
