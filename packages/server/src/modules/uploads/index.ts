/**
 * What other modules may use of uploads besides its service: decoding a stored file's audio and the
 * waveform peaks object that analysis writes (the files module answers the editor's peaks from it).
 */

export {
  decodePeaksHeader,
  PEAKS_HEADER_BYTES,
  type PeaksHeader,
  peaksKeyOf,
  storePeaks,
} from './peaks-file.ts';
export { decodeStored } from './processing.ts';
