/**
 * Production's public OpenAPI document (lightsparkdev/grid-api, bundled `openapi.yaml`), when this
 * checkout has it: `shared/production/openapi.yaml` beside the project root or one of its parents
 * (the lead keeps it at `../shared/production/openapi.yaml`), or the file `CB_PRODUCTION_OPENAPI` names.
 * Tests that read it are skipped where it is absent.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The path of production's document, or undefined when this machine has none. */
export function productionDocumentPath(): string | undefined {
  const named = process.env.CB_PRODUCTION_OPENAPI;
  if (named) return existsSync(named) ? resolve(named) : undefined;
  let dir = resolve(fileURLToPath(new URL('../../', import.meta.url)));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'shared', 'production', 'openapi.yaml');
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

let cached: Record<string, any> | undefined;
/** Production's document, parsed once per test file. */
export function productionDocument(): Record<string, any> {
  const path = productionDocumentPath();
  if (!path) throw new Error('production document not found (see test/helpers/production-document.ts)');
  return (cached ??= parse(readFileSync(path, 'utf8')) as Record<string, any>);
}

/** One example of production's webhooks: its webhook key, example name and body. */
export interface WebhookExample {
  key: string;
  name: string;
  body: { id: string; type: string; timestamp: string; data: unknown };
}

/** Every example of production's `webhooks` section. */
export function productionWebhookExamples(): WebhookExample[] {
  const out: WebhookExample[] = [];
  for (const [key, item] of Object.entries<any>(productionDocument().webhooks ?? {})) {
    const examples = item.post?.requestBody?.content?.['application/json']?.examples ?? {};
    for (const [name, example] of Object.entries<any>(examples)) out.push({ key, name, body: example.value });
  }
  return out;
}
