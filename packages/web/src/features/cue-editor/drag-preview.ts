/**
 * A drag on the timeline, previewed on the canvas only: the document (and so the editor's toolbar,
 * inspector and meter) changes once, when the drag ends (one undo step). The preview uses the
 * model's own clamping rules, so what is drawn while dragging is what the drop makes.
 */
import { type EditorCue, groupMoveOffset, roundStrength, withEdgeAt } from './model/cue-document.ts';

/** A finished or ongoing drag of cues: the total change since the press. */
export type TimelineGesture =
  | { kind: 'move'; ids: number[]; deltaMs: number }
  | { kind: 'resize'; id: number; edge: 'start' | 'stop'; toMs: number }
  /** The change of strength since the drag began (the grabbed cue's new strength minus its old). */
  | { kind: 'strength'; ids: number[]; delta: number };

/** What the canvas draws instead of the dragged cues while the drag goes on. */
export interface DragPreview {
  /** The dragged cues: not drawn at their place in the document. */
  hidden: ReadonlySet<number>;
  /** The dragged cues as the drop would leave them, in time order (`offsetMs` not yet added). */
  cues: readonly EditorCue[];
  /** Added to every preview cue's times when drawn: moving 5,000 cues makes no new cue objects. */
  offsetMs: number;
  /** Whether a preview cue hides the document's cues under it (a move or resize wins over them). */
  covers: boolean;
  /** Whether every cue of the document is dragged (nothing else to draw, nothing to cover). */
  everything: boolean;
}

/**
 * The preview of drags of the given cues (sorted as in the document), worked out once per press:
 * each pointer move then costs a clamp (move, resize) or one pass over the dragged cues (strength).
 */
export function dragPreviewOf(
  cues: readonly EditorCue[],
  ids: readonly number[],
  durationMs: number,
): (gesture: TimelineGesture) => DragPreview {
  const hidden = new Set(ids);
  const dragged = cues.filter((c) => hidden.has(c.id));
  const everything = dragged.length === cues.length;
  // Clearing the lane under the dragged blocks is needed only where other cues are drawn.
  const covers = !everything;
  return (gesture) => {
    if (dragged.length === 0) return { hidden, cues: dragged, offsetMs: 0, covers: false, everything };
    switch (gesture.kind) {
      case 'move':
        return {
          hidden,
          cues: dragged,
          offsetMs: groupMoveOffset(dragged, gesture.deltaMs, durationMs),
          covers,
          everything,
        };
      case 'resize':
        return {
          hidden,
          cues: dragged.map((c) => withEdgeAt(c, gesture.edge, gesture.toMs, durationMs)),
          offsetMs: 0,
          covers,
          everything,
        };
      case 'strength':
        return {
          hidden,
          cues: dragged.map((c) => ({ ...c, strength: roundStrength(c.strength + gesture.delta) })),
          offsetMs: 0,
          covers: false,
          everything,
        };
    }
  };
}
