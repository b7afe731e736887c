import { createReadStream } from 'node:fs';
import type { Crossborder, Uploadable } from 'crossborder-sdk';

/** A passport scan of a customer or beneficial owner, from a file on disk: the stream is read once and sent as bytes. */
export function uploadPassport(cb: Crossborder, holderId: string, path: string, country: string) {
  return cb.documents.upload({ file: { name: 'passport.pdf', data: createReadStream(path) }, documentHolder: holderId, documentType: 'PASSPORT', country });
}

/** A rejected document uploaded again: the new file (bytes, a Blob or File, a stream) and its metadata. */
export function uploadAgain(cb: Crossborder, documentId: string, file: Uploadable, country: string) {
  return cb.documents.replace(documentId, { file, documentType: 'PASSPORT', country });
}

/** The names of a holder's documents, every page. */
export async function documentsOf(cb: Crossborder, holderId: string): Promise<string[]> {
  const names: string[] = [];
  for await (const document of cb.documents.list({ documentHolder: holderId })) names.push(`${document.documentType} ${document.fileName}`);
  return names;
}
