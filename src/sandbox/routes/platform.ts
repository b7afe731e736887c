/**
 * Platform configuration, the platform's internal accounts, verifications (invitations: ./invitations.ts), the UMA provider
 * directory and the sandbox's test webhook.
 * @module
 */
import type { PlatformConfigUpdateParams } from '../../generated/types';
import { nowIso, type Handler } from '../domain/context';
import { providerFields } from '../domain/config';
import { CURRENCIES } from '../domain/currencies';
import { SandboxError, invalidInput } from '../domain/errors';
import { platformInternalAccounts } from '../domain/finders';
import { testEventData } from '../domain/webhooks';
import { ok } from '../serve/http';
import { paginate } from '../domain/pagination';
import { PROVIDERS } from '../domain/providers';

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
        throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `minAmount ${c.minAmount} is above maxAmount ${c.maxAmount}.`, {
          field: `supportedCurrencies.${i}.minAmount`,
        });
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

const listVerifications: Handler = (ctx, call) => {
  const q = call.query as { customerId?: string; verificationStatus?: string; limit?: number; cursor?: string };
  const matches = [...ctx.world.verifications.values()].filter(({ data: v }) => {
    if (ctx.world.customers.get(v.customerId)?.data.isDeleted) return false;
    return (
      (q.customerId === undefined || v.customerId === q.customerId) && (q.verificationStatus === undefined || v.verificationStatus === q.verificationStatus)
    );
  });
  return ok(paginate(matches, q, (v) => v.data));
};

const listUmaProviders: Handler = (_ctx, call) => {
  const q = call.query as {
    countryCode?: string;
    currencyCode?: string;
    hasBlockedProviders?: boolean;
    limit?: number;
    cursor?: string;
    sortOrder?: 'asc' | 'desc';
  };
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
    throw new SandboxError(400, 'WEBHOOK_ENDPOINT_NOT_SET', 'No webhookEndpoint is configured (PATCH /config): there is nowhere to send the test webhook.', {
      field: 'webhookEndpoint',
    });
  }
  const attempt = await ctx.webhooks.test(testEventData());
  if (!attempt || attempt.status === undefined || attempt.status < 200 || attempt.status >= 300) {
    throw new SandboxError(
      400,
      'WEBHOOK_DELIVERY_ERROR',
      `The test webhook to ${ctx.world.config.webhookEndpoint} failed: ${attempt?.error ?? `answered ${attempt?.status}`}.`,
      {
        url: ctx.world.config.webhookEndpoint,
        ...(attempt?.status !== undefined ? { response_status: attempt.status } : {}),
      },
    );
  }
  return ok({ url: attempt.url, response_status: attempt.status, response_body: attempt.response ?? '' });
};

/** The platform routes. */
export const platformRoutes = {
  getConfig,
  updateConfig,
  listVerifications,
  listUmaProviders,
  listPlatformInternalAccounts: listPlatformInternal,
  sendTestWebhook,
} satisfies Record<string, Handler>;
