import {
  DragDropContext,
  Draggable,
  type DraggableProvided,
  Droppable,
  type DropResult,
} from '@hello-pangea/dnd';
import type { ReactNode } from 'react';
import styles from './TrackList.module.css';

/** TrackList's rows with drag reordering (a playlist being edited). */
export default function ReorderableRows({
  label,
  keys,
  row,
  onReorder,
}: {
  label: string;
  /** One per row, stable across reorders. */
  keys: string[];
  row: (index: number, drag: DraggableProvided) => ReactNode;
  onReorder: (from: number, to: number) => void;
}) {
  const onDragEnd = (result: DropResult) => {
    if (!result.destination || result.destination.index === result.source.index) return;
    onReorder(result.source.index, result.destination.index);
  };
  return (
    <DragDropContext onDragEnd={onDragEnd}>
      <Droppable droppableId="tracks">
        {(drop) => (
          <ol className={styles.list} aria-label={label} ref={drop.innerRef} {...drop.droppableProps}>
            {keys.map((key, index) => (
              <Draggable key={key} draggableId={key} index={index}>
                {(drag) => row(index, drag)}
              </Draggable>
            ))}
            {drop.placeholder}
          </ol>
        )}
      </Droppable>
    </DragDropContext>
  );
}
