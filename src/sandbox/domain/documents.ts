/**
 * Verification documents (production's `/documents`): a customer's or beneficial owner's file with its
 * metadata, uploaded and replaced as `multipart/form-data`. The world keeps each document's answer and its
 * file's size, content type and SHA-256 (so a test or a state export can tell the bytes arrived whole), not
 * the file: nothing reads a document's content back.
 *
 * What the sandbox checks, as production's document states it: a file part `file` of a PDF, JPEG or PNG (its
 * content type, or its name's extension when the type says nothing), not empty and at most 10 MB (larger: 413
 * `FILE_TOO_LARGE`); a holder that exists (a live customer or beneficial owner, else 404). A document uploaded
 * before its customer's latest verification submission (`POST /verifications`) counts as submitted with it:
 * deleting it is 409 `DOCUMENT_SUBMITTED` (production: "documents already submitted for verification may not
 * be deletable"); replacing it is allowed (the way to fix a rejected document).
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { Document, DocumentReplaceRequest, DocumentUploadRequest } from '../../generated/types';
import { now, nowIso, type Ctx, type UploadedFile } from './context';
import { SandboxError, invalidInput, notFound } from './errors';
import { findCustomer } from './finders';
import type { DocumentRec } from './state';

export type { DocumentRec } from './state';

/** The largest file a document takes: production's 10 MB. */
export const MAX_DOCUMENT_FILE_BYTES = 10 * 1024 * 1024;

/** The file types production takes, by content type, and the name extensions that say the same. */
const TYPES: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
};

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The file part `file`, checked: its content type (one production takes), size and digest. */
function checkedFile(files: Record<string, UploadedFile> | undefined): { name: string; info: DocumentRec['file'] } {
  const file = files?.file;
  if (!file) throw invalidInput('file', 'file must be a file part of the multipart body (Content-Disposition with a filename), not a text field.');
  const declared = file.type.split(';')[0]!.trim().toLowerCase();
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase();
  const contentType =
    declared in TYPES
      ? declared
      : declared === '' || declared === 'application/octet-stream'
        ? Object.keys(TYPES).find((type) => extension !== undefined && TYPES[type]!.includes(extension))
        : undefined;
  if (contentType === undefined) {
    throw invalidInput(
      'file',
      `file must be a PDF, JPEG or PNG (its content type, or its name's extension); got ${declared || 'no type'} named ${JSON.stringify(file.name)}.`,
    );
  }
  if (file.bytes.length === 0) throw invalidInput('file', 'file is empty.');
  if (file.bytes.length > MAX_DOCUMENT_FILE_BYTES) {
    throw new SandboxError(
      413,
      'FILE_TOO_LARGE',
      `The file is ${file.bytes.length} bytes; the most a document takes is ${MAX_DOCUMENT_FILE_BYTES} bytes (10 MB).`,
      { field: 'file', size: file.bytes.length, limit: MAX_DOCUMENT_FILE_BYTES },
    );
  }
  return { name: file.name, info: { size: file.bytes.length, contentType, sha256: hex(sha256(file.bytes)) } };
}

/** The customer a holder id belongs to: the customer itself, or the beneficial owner's; 404 when there is none. */
function holderCustomer(ctx: Ctx, holder: string): string {
  if (holder.startsWith('BeneficialOwner:')) {
    const owner = ctx.world.beneficialOwners.get(holder);
    if (!owner) throw notFound('BENEFICIAL_OWNER_NOT_FOUND', 'Beneficial owner', holder);
    findCustomer(ctx, owner.data.customerId);
    return owner.data.customerId;
  }
  return findCustomer(ctx, holder).data.id;
}

/** The metadata parts a document keeps, as sent (absent ones left out). */
function metadata(body: DocumentReplaceRequest): Pick<Document, 'documentType' | 'side' | 'country' | 'documentNumber' | 'issuingAuthority'> {
  if (!/^[A-Z]{2}$/.test(body.country))
    throw invalidInput('country', `country must be an ISO 3166-1 alpha-2 code (two capital letters); got ${JSON.stringify(body.country)}.`);
  return {
    documentType: body.documentType,
    ...(body.side !== undefined ? { side: body.side } : {}),
    country: body.country,
    ...(body.documentNumber !== undefined ? { documentNumber: body.documentNumber } : {}),
    ...(body.issuingAuthority !== undefined ? { issuingAuthority: body.issuingAuthority } : {}),
  };
}

/** Uploads a document of a live customer or beneficial owner. */
export function uploadDocument(ctx: Ctx, body: DocumentUploadRequest, files: Record<string, UploadedFile> | undefined): Document {
  holderCustomer(ctx, body.documentHolder);
  const { name, info } = checkedFile(files);
  const { id, seq } = ctx.ids.next('Document');
  const at = nowIso(ctx);
  const data: Document = { id, documentHolder: body.documentHolder, ...metadata(body), fileName: name, createdAt: at, updatedAt: at };
  ctx.world.documents.set(id, { seq, createdMs: now(ctx), data, file: info, uploadSeq: seq });
  return data;
}

/** A document not deleted, or 404 `DOCUMENT_NOT_FOUND`. */
export function findDocument(ctx: Ctx, id: string): DocumentRec {
  const rec = ctx.world.documents.get(id);
  if (!rec || rec.deleted) throw notFound('DOCUMENT_NOT_FOUND', 'Document', id);
  return rec;
}

/** Replaces a document's file and metadata; its id, holder and creation time stay. */
export function replaceDocument(ctx: Ctx, id: string, body: DocumentReplaceRequest, files: Record<string, UploadedFile> | undefined): Document {
  const rec = findDocument(ctx, id);
  const { name, info } = checkedFile(files);
  const { id: keptId, documentHolder, createdAt } = rec.data;
  rec.data = { id: keptId, documentHolder, ...metadata(body), fileName: name, createdAt, updatedAt: nowIso(ctx) };
  rec.file = info;
  rec.uploadSeq = ctx.ids.nextSequence - 1; // every id made so far, a verification's included, is before it
  return rec.data;
}

/** Deletes a document, unless it was submitted with its customer's latest verification (409). */
export function deleteDocument(ctx: Ctx, id: string): void {
  const rec = findDocument(ctx, id);
  const customerId = holderCustomer(ctx, rec.data.documentHolder);
  const submitted = [...ctx.world.verifications.values()].find((v) => v.data.customerId === customerId && v.seq > rec.uploadSeq);
  if (submitted) {
    throw new SandboxError(
      409,
      'DOCUMENT_SUBMITTED',
      `Document ${id} was submitted for verification with ${submitted.data.id}: it cannot be deleted (replace it instead).`,
      {
        id,
        verificationId: submitted.data.id,
      },
    );
  }
  rec.deleted = true;
}
