/**
 * CSV customer imports (production's `POST /customers/bulk/csv`): the file is read at upload, and the job
 * then goes PENDING → PROCESSING → COMPLETED (or FAILED when no row became a customer) on the sandbox
 * clock, {@link BATCH} rows per {@link STEP_MS}. Each row is made a `POST /customers` body and goes through
 * the same schema and the same {@link createCustomer} as the API; a row refused is a failed entry of the
 * job with the refusal's code, message and details, not a failed upload. The end sends
 * BULK_UPLOAD.COMPLETED or BULK_UPLOAD.FAILED with the job.
 * @module
 */
import type { BulkCustomerImportJob, BulkCustomerImportJobAccepted, CustomerCreateParams } from '../../generated/types';
import { zCreateCustomerBody } from '../../generated/zod.gen';
import { iso } from './clock';
import { now, type Ctx } from './context';
import { createCustomer } from './customers';
import { SandboxError, invalidInput, notFound } from './errors';
import type { BulkImportRec } from './state';
import { validate } from './validation';

/** Rows processed per step of a job. */
export const BATCH = 100;
/** Sandbox time between a job's steps (the first one makes it PROCESSING). */
export const STEP_MS = 1_000;

/** Columns every row needs, then those of each customer type (production's documented CSV format). */
const REQUIRED = ['umaAddress', 'platformCustomerId', 'customerType'] as const;
const ADDRESS = ['addressLine1', 'city', 'state', 'postalCode', 'country'] as const;
const REQUIRED_BY_TYPE: Record<string, readonly string[]> = {
  INDIVIDUAL: ['fullName', 'birthDate', ...ADDRESS],
  BUSINESS: ['businessLegalName', ...ADDRESS],
};

/** Parses the CSV (header row first) and starts its job; 400 naming `file` when the file has no header. */
export async function startImport(ctx: Ctx, csv: string): Promise<BulkCustomerImportJobAccepted> {
  // Loaded with the first upload: a sandbox that never imports does not load the parser.
  const { parse } = await import('csv-parse/sync');
  let records: string[][];
  try {
    records = parse(csv.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw invalidInput('file', `The file is not CSV: ${(error as Error).message}`);
  }
  const [header, ...data] = records;
  if (!header || header.every((h) => h === ''))
    throw invalidInput('file', 'The CSV file is empty: it needs a header row naming its columns, then one row per customer.');
  const missing = REQUIRED.find((column) => !header.includes(column));
  const rows = data.map((cells, i) => {
    const byName: Record<string, string> = {};
    header.forEach((name, j) => {
      if (name !== '' && cells[j] !== undefined && cells[j] !== '') byName[name] = cells[j]!;
    });
    return { correlationId: byName.platformCustomerId ?? `row_${i + 1}`, cells: byName };
  });
  const { id: jobId, seq } = ctx.ids.next('Job');
  const rec: BulkImportRec = {
    seq,
    createdMs: now(ctx),
    data: { id: jobId, status: 'PENDING', progress: { total: rows.length, processed: 0, successful: 0, failed: 0 }, errors: [] },
    rows,
    fileProblem: missing === undefined ? undefined : { column: missing, message: `The CSV has no ${missing} column.` },
  };
  ctx.world.bulkImports.set(jobId, rec);
  schedule(ctx, rec);
  return { jobId, status: 'PENDING' };
}

/** The job of `jobId` as answered, or 404 BULK_UPLOAD_JOB_NOT_FOUND. */
export function findImport(ctx: Ctx, jobId: string): BulkCustomerImportJob {
  const rec = ctx.world.bulkImports.get(jobId);
  if (!rec) throw notFound('BULK_UPLOAD_JOB_NOT_FOUND', 'Bulk upload job', jobId);
  return rec.data;
}

/** Schedules the unfinished jobs again after a state import (their scheduled steps were not kept). */
export function resumeImports(ctx: Ctx): void {
  for (const rec of ctx.world.bulkImports.values()) if (rec.data.status === 'PENDING' || rec.data.status === 'PROCESSING') schedule(ctx, rec);
}

function schedule(ctx: Ctx, rec: BulkImportRec): void {
  const world = ctx.world;
  ctx.scheduler.at(now(ctx) + STEP_MS, () => {
    if (ctx.world === world) step(ctx, rec);
  });
}

/** One step: the next {@link BATCH} rows; the end of the job when none is left. */
function step(ctx: Ctx, rec: BulkImportRec): void {
  const job = rec.data;
  job.status = 'PROCESSING';
  for (const row of rec.rows.splice(0, BATCH)) {
    try {
      if (rec.fileProblem)
        throw invalidInput(rec.fileProblem.column, rec.fileProblem.message, { reason: 'missing_required_column', column: rec.fileProblem.column });
      createCustomer(ctx, validate('body', zCreateCustomerBody, customerBody(row.cells)) as CustomerCreateParams);
      job.progress.successful++;
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      job.progress.failed++;
      (job.errors ??= []).push({
        correlationId: row.correlationId,
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
      });
    }
    job.progress.processed++;
  }
  if (rec.rows.length > 0) return schedule(ctx, rec);
  job.status = job.progress.total > 0 && job.progress.successful === 0 ? 'FAILED' : 'COMPLETED';
  job.completedAt = iso(now(ctx));
  ctx.webhooks.emit(job.status === 'FAILED' ? 'BULK_UPLOAD.FAILED' : 'BULK_UPLOAD.COMPLETED', job);
}

/**
 * A row as the `POST /customers` body it stands for; 400 naming the first required column the row
 * lacks. An UMA address given without its `$` (production's own example) gets one.
 */
function customerBody(cells: Record<string, string>): unknown {
  const type = cells.customerType;
  const lacking = [...REQUIRED, ...(type === undefined ? [] : (REQUIRED_BY_TYPE[type] ?? []))].find((column) => cells[column] === undefined);
  if (lacking) throw invalidInput(lacking, `${lacking} is required${type && lacking !== 'customerType' ? ` for a ${type} customer` : ''}.`);
  const address = {
    line1: cells.addressLine1,
    line2: cells.addressLine2,
    city: cells.city,
    state: cells.state,
    postalCode: cells.postalCode,
    country: cells.country,
  };
  const common = {
    customerType: type,
    platformCustomerId: cells.platformCustomerId,
    umaAddress: cells.umaAddress!.startsWith('$') ? cells.umaAddress : `$${cells.umaAddress}`,
    address,
  };
  if (type === 'BUSINESS') {
    return {
      ...common,
      businessInfo: { legalName: cells.businessLegalName, registrationNumber: cells.businessRegistrationNumber, taxId: cells.businessTaxId },
    };
  }
  return { ...common, fullName: cells.fullName, birthDate: cells.birthDate };
}
