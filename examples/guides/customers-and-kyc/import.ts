import type { Crossborder } from 'crossborder-sdk';

/** Uploads a CSV of customers (its text: `readFileSync('customers.csv', 'utf8')`); the import runs as a job. */
export async function importCustomers(cb: Crossborder, csv: string) {
  const { jobId } = await cb.customers.importCsv({ file: csv });
  return jobId;
}

/** How the job went: a failed row names its `platformCustomerId` (or `row_<n>`) and the column at fault. */
export async function importReport(cb: Crossborder, jobId: string) {
  const job = await cb.customers.retrieveImportJob(jobId);
  const failed = (job.errors ?? []).map((e) => `${e.correlationId}: ${e.code} ${e.message}`);
  return { status: job.status, progress: job.progress, failed }; // PENDING, PROCESSING, then COMPLETED or FAILED
}
