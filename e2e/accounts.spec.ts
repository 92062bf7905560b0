import { expect, lastMailTo, test, uniqueName } from './fixtures.ts';

/** The path and query of an e-mailed link; the server may name another host than the test's. */
function pathOf(link: string | undefined): string {
  expect(link, 'the e-mail carries a link').toBeTruthy();
  const url = new URL(link!);
  return url.pathname + url.search;
}

test('an account from sign-up to a reset password', async ({ page }) => {
  const username = uniqueName('acc');
  const email = `${username.toLowerCase()}@example.com`;
  const password = 'first-password-1';
  const newPassword = 'second-password-2';
  const header = page.getByRole('banner');

  await test.step('sign up', async () => {
    await page.goto('/signup');
    await expect(page).toHaveTitle('Create Account - Mesmer');
    const submit = page.getByRole('button', { name: 'Create Account' });
    await submit.click();
    await expect(page.getByText('Please fill out all highlighted fields.')).toBeVisible();
    for (const label of ['Username', 'E-mail', 'Password']) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    }
    await page.getByLabel('Username').fill('no spaces!');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await submit.click();
    await expect(page.getByText(/Usernames must be 3 to 20 characters/)).toBeVisible();
    await page.getByLabel('Username').fill(username);
    await submit.click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText(`we sent a verification link to ${email}`)).toBeVisible();
    await expect(page.getByText('Not verified')).toBeVisible();
  });

  await test.step('a signed-in visitor on /signup goes to the account page', async () => {
    await page.goto('/signup');
    await expect(page).toHaveURL(/\/account$/);
  });

  await test.step('verify the e-mail from the link', async () => {
    const mail = await lastMailTo(email);
    await page.goto(pathOf(mail.link));
    await expect(page.getByRole('heading', { name: 'Verification complete!' })).toBeVisible();
    await expect(page.getByText('Your account is now verified.')).toBeVisible();
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step('the same link a second time fails', async () => {
    const mail = await lastMailTo(email);
    await page.goto(pathOf(mail.link));
    await expect(page.getByRole('heading', { name: 'Verification failed.' })).toBeVisible();
    await expect(page.getByText('Your account could not be verified. Please try again.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go Home' })).toBeVisible();
  });

  await test.step('log out', async () => {
    await header.getByRole('link', { name: `Account (${username})` }).click();
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(header.getByRole('link', { name: 'Log in' })).toBeVisible();
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step('a taken username is refused', async () => {
    await page.goto('/signup');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('E-mail').fill(`other-${email}`);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('The username or email you entered is already in use.')).toBeVisible();
  });

  await test.step('log in with a wrong, then the right password', async () => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Login - Mesmer');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Please fill out all highlighted fields.')).toBeVisible();
    await page.getByLabel('Username').fill(username);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Username')).not.toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Password').fill('not-my-password');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Your username or password is incorrect.')).toBeVisible();
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(header.getByRole('link', { name: `Account (${username})` })).toBeVisible();
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step('a setting persists', async () => {
    await page.goto('/account');
    const censor = page.getByRole('switch', { name: 'Censor trigger words' });
    await expect(censor).toHaveAttribute('aria-checked', 'false');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/user') && r.request().method() === 'PUT',
    );
    await censor.click();
    await expect(censor).toHaveAttribute('aria-checked', 'true');
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Censor trigger words' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(page.getByRole('switch', { name: 'Hide locked files' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
  });

  await test.step('the toy help popup explains four steps', async () => {
    await page.getByRole('button', { name: 'How to connect a toy' }).click();
    const popup = page.getByRole('dialog', { name: 'How to connect a toy' });
    await expect(popup.getByRole('listitem')).toHaveCount(4);
    await page.mouse.click(5, 5);
    await expect(popup).toBeHidden();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step('forgot password', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/reset_password$/);
    await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Please fill out all of the fields.')).toBeVisible();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  });

  await test.step('reset from the e-mailed link', async () => {
    await expect.poll(async () => (await lastMailTo(email)).subject).toMatch(/reset/i);
    const mail = await lastMailTo(email);
    await page.goto(pathOf(mail.link));
    await expect(page.getByRole('heading', { name: 'Reset Password', exact: true })).toBeVisible();
    const submit = page.getByRole('button', { name: 'Reset password' });
    await submit.click();
    await expect(page.getByText('Please fill out all of the fields.')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat password').fill(`${newPassword}x`);
    await submit.click();
    await expect(page.getByText('The passwords do not match.')).toBeVisible();
    await page.getByLabel('Repeat password').fill(newPassword);
    await submit.click();
    await expect(page.getByRole('heading', { name: 'Password reset', exact: true })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step('log in with the new password', async () => {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Your username or password is incorrect.')).toBeVisible();
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(header.getByRole('link', { name: `Account (${username})` })).toBeVisible();
  });
});
