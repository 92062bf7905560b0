import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function LoginPage() {
  usePageTitle('Login');
  return (
    <Card>
      <h1>Login</h1>
    </Card>
  );
}
