import type { RouteAddress } from './address.ts';

/** The addresses of filesApi's calls (their schemas: api/files.ts). */
export const filesRoutes = {
  list: { name: 'files.list', method: 'GET', path: '/files' },
  create: { name: 'files.create', method: 'POST', path: '/files' },
  update: { name: 'files.update', method: 'PUT', path: '/files' },
  remove: { name: 'files.remove', method: 'DELETE', path: '/files' },
  attach: { name: 'files.attach', method: 'POST', path: '/files/attachment' },
  detach: { name: 'files.detach', method: 'DELETE', path: '/files/attachment' },
  waveform: { name: 'files.waveform', method: 'GET', path: '/files/waveform' },
  peaks: { name: 'files.peaks', method: 'GET', path: '/files/peaks' },
  cues: { name: 'files.cues', method: 'GET', path: '/files/cues' },
  saveCues: { name: 'files.saveCues', method: 'PUT', path: '/files/cues' },
  uploadOptions: { name: 'files.uploadOptions', method: 'GET', path: '/files/upload-options' },
} as const satisfies Record<string, RouteAddress>;
