import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function ResetPasswordPage() {
  usePageTitle('Reset Password');
  return (
    <Card>
      <h1>Reset Password</h1>
    </Card>
  );
}
