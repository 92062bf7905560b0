import type { ReportRequest } from '@mesmer/shared/api/moderation';
import { REPORT_REASON_MAX } from '@mesmer/shared/domain/moderation';
import { moderationRoutes } from '@mesmer/shared/routes/moderation';
import { useMutation } from '@tanstack/react-query';
import { Flag } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { call } from '../lib/api-client.ts';
import { Modal, Spinner, Textarea, toast } from '../ui/index.ts';

const TITLES: Record<ReportRequest['subjectType'], string> = {
  user: 'Report this profile',
  file: 'Report this file',
  playlist: 'Report this playlist',
};

/** Reports a profile, file or playlist to the moderators, with what is wrong. */
export function ReportButton({ subjectType, subjectId }: Omit<ReportRequest, 'reason'>) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const send = useMutation({
    mutationFn: () => call(moderationRoutes.report, { body: { subjectType, subjectId, reason } }),
    onSuccess: () => {
      setOpen(false);
      setReason('');
      toast('success', 'Report sent', 'Thank you. A moderator will look at it.');
    },
    onError: (error) => toast('error', 'Failed to send the report.', error.message),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (reason.trim()) send.mutate();
  };

  return (
    <>
      <button type="button" className="btn btn-ghost" onClick={() => setOpen(true)}>
        <Flag size={16} aria-hidden /> Report
      </button>
      <Modal
        open={open}
        title={TITLES[subjectType]}
        onClose={() => setOpen(false)}
        width={440}
        footer={
          <>
            <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button
              type="submit"
              form="report-form"
              className="btn btn-danger"
              disabled={send.isPending || !reason.trim()}
            >
              {send.isPending && <Spinner size={16} />}
              Send report
            </button>
          </>
        }
      >
        <form id="report-form" onSubmit={submit}>
          <p>
            The moderators will see your report and what it is about. The person you report is not told who
            sent it.
          </p>
          <Textarea
            aria-label="What is wrong?"
            placeholder="What is wrong?"
            required
            maxLength={REPORT_REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </form>
      </Modal>
    </>
  );
}
