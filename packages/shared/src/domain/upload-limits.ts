/** The upload rules both sides apply (spec: constants; docs/decisions/018-uploads-and-storage.md). */

/** The largest file accepted: 350 MB (350,000,000 bytes). */
export const MAX_UPLOAD_BYTES = 350_000_000;
/** Every chunk but the last is this size: 80 MB (80,000,000 bytes). */
export const UPLOAD_CHUNK_BYTES = 80_000_000;
/** The most chunks a file of the largest size needs. */
export const MAX_UPLOAD_CHUNKS = Math.ceil(MAX_UPLOAD_BYTES / UPLOAD_CHUNK_BYTES);
/** The answer to a file over the limit (HTTP 413). */
export const UPLOAD_TOO_LARGE_MESSAGE = 'The max file size is 350MB.';
/** Audio formats accepted, recognised from the bytes. */
export const UPLOAD_FORMATS = ['mp3', 'm4a', 'wav', 'flac'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];
/** An upload not made into a file this long after its start is removed with its bytes. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;
/** How many chunks a file of `size` bytes takes. */
export function chunkCount(size: number): number {
  return Math.max(1, Math.ceil(size / UPLOAD_CHUNK_BYTES));
}
/** Every chunk but the last must be at least this long: S3's smallest multipart part (5 MiB). */
export const MIN_UPLOAD_PART_BYTES = 5 * 1024 * 1024;
/**
 * The most bytes one account's unfinished uploads (received chunks and processed audio not yet
 * made into a file) may hold: two files of the largest size.
 */
export const MAX_UNFINISHED_UPLOAD_BYTES = 2 * MAX_UPLOAD_BYTES;
/** The answer (HTTP 413) to a chunk that would take an account's unfinished uploads past the cap. */
export const UNFINISHED_UPLOADS_FULL_MESSAGE =
  'Your unfinished uploads hold the most allowed (700 MB): finish or cancel one before sending more.';
