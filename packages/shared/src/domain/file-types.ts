/** File type ids. 7 and 9 are music, 9 being AI music. */
export const FILE_TYPES = [
  { id: 1, name: 'induction' },
  { id: 2, name: 'deepener' },
  { id: 3, name: 'trigger' },
  { id: 4, name: 'suggestion' },
  { id: 5, name: 'loop' },
  { id: 6, name: 'awakener' },
  { id: 7, name: 'music' },
  { id: 8, name: 'full session' },
  { id: 9, name: 'ai music' },
] as const;

export const MUSIC_TYPE_ID = 7;
export const AI_MUSIC_TYPE_ID = 9;
export const MUSIC_TYPE_IDS: readonly number[] = [MUSIC_TYPE_ID, AI_MUSIC_TYPE_ID];
export const INDUCTION_TYPE_ID = 1;
export const LOOP_TYPE_ID = 5;
export const AWAKENER_TYPE_ID = 6;

export function isMusicType(id: number): boolean {
  return MUSIC_TYPE_IDS.includes(id);
}

/** The type's icon, `images/{fileType}.svg` with the type id, served beside the web app. */
export function fileTypeIconPath(id: number): string {
  return `/images/${id}.svg`;
}

/** Display name: 'ai music' reads 'AI music', others get a capital first letter. */
export function fileTypeLabel(name: string): string {
  if (name === 'ai music') return 'AI music';
  return name.charAt(0).toUpperCase() + name.slice(1);
}
