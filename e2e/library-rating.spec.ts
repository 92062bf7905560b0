import { expect, signUpViaApi, test } from './fixtures.ts';

test('rate and favourite a community playlist, then find it under Favorites and Liked', async ({ page }) => {
  await signUpViaApi(page, 'rater');
  await page.goto('/playlists');
  const community = page.getByRole('list', { name: 'Community Playlists' });
  await community.getByRole('link', { name: /Moonlit Evening/ }).click();
  await expect(page.getByRole('heading', { name: 'Moonlit Evening' })).toBeVisible();

  const like = page.getByRole('button', { name: 'Like', exact: true });
  const dislike = page.getByRole('button', { name: 'Dislike' });
  const favourite = page.getByRole('button', { name: 'Favourite' });
  await expect(like).toBeEnabled();
  const likesBefore = Number(await like.textContent());

  await dislike.click();
  await expect(dislike).toHaveAttribute('aria-pressed', 'true');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(dislike).toHaveAttribute('aria-pressed', 'false');
  await expect(like).toHaveText(String(likesBefore + 1));
  await favourite.click();
  await expect(favourite).toHaveAttribute('aria-pressed', 'true');

  // Stored: still there after a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Like', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');

  await page.goto('/');
  await expect(page.getByText("You don't have any playlists yet!")).toBeVisible();
  await page.getByRole('tab', { name: 'Favorites' }).click();
  await expect(
    page.getByRole('list', { name: 'My playlists' }).getByRole('link', { name: /Moonlit Evening/ }),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Liked' }).click();
  await expect(
    page.getByRole('list', { name: 'My playlists' }).getByRole('link', { name: /Moonlit Evening/ }),
  ).toBeVisible();
});

test('signed-out visitors see core sessions and the welcome card but no rating buttons', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('list', { name: 'Core sessions' }).getByRole('link').first()).toBeVisible();
  await page.getByRole('link', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.goto('/playlists');
  await page
    .getByRole('list', { name: 'Community Playlists' })
    .getByRole('link', { name: /Velvet Hour/ })
    .click();
  await expect(page.getByText('Listen at your own risk!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Like', exact: true })).toHaveCount(0);
});
