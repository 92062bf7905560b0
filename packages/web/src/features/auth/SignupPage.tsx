import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function SignupPage() {
  usePageTitle('Create Account');
  return (
    <Card>
      <h1>Create Account</h1>
    </Card>
  );
}
