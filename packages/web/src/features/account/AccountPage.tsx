import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function AccountPage() {
  usePageTitle('Account');
  return (
    <Card>
      <h1>Account</h1>
    </Card>
  );
}
