/** '1 cue', '3 cues': counts in the editor's announcements and messages. */
export const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
