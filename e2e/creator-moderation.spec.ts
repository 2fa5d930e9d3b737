import type { Video, WatchedWord } from '@glimpse/contract';
import { adminUser, createChannelUser, expect, signIn, test, uniqueName, uploadVideo, type ApiUser } from './support/index.ts';

/** Issue #12 items 5 and 6 in the browser: a held comment reviewed, a pin, comments turned off. */
let creator: ApiUser;
let fan: ApiUser;
let video: Video;
let word: WatchedWord;
let held: string;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const admin = await adminUser(request);
  // A word no other spec writes, removed afterwards: the server is shared.
  word = await admin.send<WatchedWord>('post', '/admin/watched-words', { word: uniqueName('zzspoiler') }, 201);
  creator = await createChannelUser(request, 'Cleo Creator');
  fan = await createChannelUser(request, 'Finn Fan');
  video = await uploadVideo(creator, { title: uniqueName('Moderated clip '), pattern: 'testsrc2', seconds: 2 });
  held = (await fan.send<{ _id: string }>('post', `/comments/video/${video._id}`, { content: `the ending: ${word.word}` }, 201))._id;
  await fan.send('post', `/comments/video/${video._id}`, { content: 'Lovely colours' }, 201);
});
test.afterAll(async ({ request }) => {
  await (await adminUser(request)).send('delete', `/admin/watched-words/${word._id}`);
});

test('the creator approves a held comment, pins one, then turns comments off', async ({ page }) => {
  await signIn(page, creator.account, `/video/${video._id}`);
  const comments = page.getByRole('article', { name: 'Comment by Finn Fan' });
  const heldComment = comments.filter({ hasText: word.word });
  await expect(heldComment.getByText('Held for review')).toBeVisible();

  await heldComment.getByRole('button', { name: 'Comment actions' }).click();
  await heldComment.getByRole('menuitem', { name: 'Approve' }).click();
  await expect(heldComment.getByText('Held for review')).toHaveCount(0);
  // Published now: a visitor's list holds it.
  const visitor = await (await page.request.get(`/api/v1/comments/video/${video._id}`)).json();
  expect(visitor.data.comments.map((c: { _id: string }) => c._id)).toContain(held);

  const other = comments.filter({ hasText: 'Lovely colours' });
  await other.getByRole('button', { name: 'Comment actions' }).click();
  await other.getByRole('menuitem', { name: 'Pin' }).click();
  await expect(other.getByText('Pinned by Cleo Creator')).toBeVisible();
  await page.reload();
  await expect(comments.first()).toContainText('Lovely colours');
  await expect(comments.first().getByText('Pinned by Cleo Creator')).toBeVisible();

  await page.goto(`/user/@${creator.user.userName}/dashboard`);
  await page.getByRole('button', { name: `Edit ${video.title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit video' });
  await dialog.getByRole('checkbox', { name: 'Allow comments' }).uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await page.goto(`/video/${video._id}`);
  await expect(page.getByText('Comments are turned off for this video')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Add a comment' })).toHaveCount(0);
});
