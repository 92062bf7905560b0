import type { Thread } from '@mesmer/shared/api/messages';
import { REPORT_REASON_MAX } from '@mesmer/shared/domain/moderation';
import { moderationRoutes } from '@mesmer/shared/routes/moderation';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messageKeys } from '../../api/messages.ts';
import { call } from '../../lib/api-client.ts';
import { Checkbox, ConfirmPopup, Textarea, toast } from '../../ui/index.ts';

/**
 * The chat header's Block action: blocks the thread's other people (they can no longer message,
 * start a thread with or befriend the viewer), optionally with a report, and closes the thread,
 * which leaves the viewer's list.
 */
export function BlockThreadSlot({ thread }: { thread: Thread }) {
  const [open, setOpen] = useState(false);
  const [report, setReport] = useState(false);
  const [reportMessage, setReportMessage] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const block = useMutation({
    mutationFn: () =>
      call(moderationRoutes.block, {
        body: { threadId: thread.id, report, reportMessage: report ? reportMessage : undefined },
      }),
    onSuccess: () => {
      setOpen(false);
      queryClient.invalidateQueries({ queryKey: messageKeys.all });
      toast('success', 'Blocked', report ? 'The report was sent to the moderators.' : undefined);
      navigate('/messages');
    },
    onError: (error) => toast('error', 'Failed to block.', error.message),
  });

  return (
    <>
      <button type="button" className="btn btn-ghost" onClick={() => setOpen(true)}>
        <Ban size={16} aria-hidden /> Block
      </button>
      <ConfirmPopup
        open={open}
        title="Block"
        confirmLabel="Block"
        danger
        busy={block.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => block.mutate()}
        message={
          <>
            <p>
              They will no longer be able to message you, start a thread with you or ask to be your friend.
            </p>
            <Checkbox label="Also report to the moderators" checked={report} onChange={setReport} />
            {report && (
              <Textarea
                aria-label="Details (optional)"
                placeholder="Details (optional)"
                maxLength={REPORT_REASON_MAX}
                value={reportMessage}
                onChange={(e) => setReportMessage(e.target.value)}
              />
            )}
          </>
        }
      />
    </>
  );
}
