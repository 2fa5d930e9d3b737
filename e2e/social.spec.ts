import type { Video } from '@glimpse/contract';
import {
  chooseFiles,
  createChannelUser,
  expect,
  expectNoPageOverflow,
  makeImage,
  screenshotWidths,
  signIn,
  test,
  uniqueName,
  uploadVideo,
  type ApiUser,
} from './support/index.ts';

let creator: ApiUser;
let video: Video;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  creator = await createChannelUser(request, 'Tess Tweeter');
  video = await uploadVideo(creator, { title: uniqueName('Feed clip '), pattern: 'testsrc2', seconds: 2 });
});

test('the owner posts a tweet with an image, edits it, a reader comments on it, the owner deletes it', async ({ page, browser, request }) => {
  const { userName, fullName } = creator.user;
  const long = `Behind the scenes of today's shoot: ${'lights, camera, colour bars, '.repeat(4)}and a very patient crew.`;
  const edited = 'Behind the scenes, take two: the crew deserves a medal.';
  const image = await makeImage(640, 360, 'smptebars');
  const tweets = page.getByRole('list', { name: 'Tweets' });
  const tweet = tweets.getByRole('article', { name: `Tweet by ${fullName}` });

  await signIn(page, creator.account, `/channel/@${userName}/tweets`);
  await expect(page.getByText('No tweets')).toBeVisible();
  await expect(page.getByText('This channel has yet to make a Tweet.')).toBeVisible();

  await test.step('post with an image: preview, discard, pick again, post', async () => {
    const composer = page.getByRole('form', { name: 'New tweet' });
    await composer.getByRole('textbox', { name: 'Tweet text' }).fill(long);
    await chooseFiles(composer.getByRole('button', { name: 'Add image' }), image);
    await expect(composer.getByRole('img', { name: 'Selected image preview' })).toBeVisible();
    await composer.getByRole('button', { name: 'Discard image' }).click();
    await expect(composer.getByRole('img', { name: 'Selected image preview' })).toHaveCount(0);
    await chooseFiles(composer.getByRole('button', { name: 'Add image' }), image);
    await composer.getByRole('button', { name: 'Post' }).click();
    await expect(tweet).toHaveCount(1);
    await expect(tweet.getByRole('img', { name: 'Tweet image' })).toBeVisible();
    await expect(composer.getByRole('textbox', { name: 'Tweet text' })).toHaveValue('');
    await expect(composer.getByRole('img', { name: 'Selected image preview' })).toHaveCount(0);
  });

  await test.step('long text is cut with Read more / Show less', async () => {
    await expect(tweet.getByText(long)).toHaveCount(0);
    await tweet.getByRole('button', { name: 'Read more' }).click();
    await expect(tweet.getByText(long)).toBeVisible();
    await tweet.getByRole('button', { name: 'Show less' }).click();
    await expect(tweet.getByText(long)).toHaveCount(0);
  });

  await test.step('the image survives a reload (served by the server)', async () => {
    await page.reload();
    const img = tweet.getByRole('img', { name: 'Tweet image' });
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
    await screenshotWidths(page, 'channel-tweets', {
      ready: async (p) => {
        await expect(p.getByRole('list', { name: 'Tweets' }).getByRole('img', { name: 'Tweet image' })).toBeVisible();
        await expectNoPageOverflow(p);
      },
    });
  });

  await test.step('edit the text through the menu', async () => {
    await tweet.getByRole('button', { name: 'Tweet options' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const box = tweet.getByRole('textbox', { name: 'Edit tweet' });
    await expect(box).toHaveValue(long);
    await box.fill(edited);
    await tweet.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Tweet updated successfully')).toBeVisible();
    await expect(tweet.getByText(edited)).toBeVisible();
    await expect(tweet.getByRole('img', { name: 'Tweet image' })).toBeVisible();
    await page.reload();
    await expect(tweet.getByText(edited)).toBeVisible();
    await expect(tweet.getByRole('img', { name: 'Tweet image' })).toBeVisible();
  });

  // Not page.request: its login would put the reader's refresh cookie in the owner's browser.
  const reader = await createChannelUser(request, 'Rita Reader');
  const readerPage = await browser.newPage();
  await test.step('another user comments on the tweet page', async () => {
    await signIn(readerPage, reader.account, `/channel/@${userName}/tweets`);
    const readerTweet = readerPage.getByRole('article', { name: `Tweet by ${fullName}` });
    await expect(readerTweet.getByRole('button', { name: 'Tweet options' })).toHaveCount(0);
    await expect(readerPage.getByRole('form', { name: 'New tweet' })).toHaveCount(0);
    await readerTweet.getByRole('link', { name: '0 comments, open tweet' }).click();
    await expect(readerPage).toHaveURL(/\/tweet\/[0-9a-f-]{36}$/);
    await expect(readerPage.getByText(edited)).toBeVisible();
    await expect(readerPage.getByRole('heading', { name: '0 Comments' })).toBeVisible();
    await expect(readerPage.getByText('No comments')).toBeVisible();
    await readerPage.getByRole('textbox', { name: 'Add a comment' }).fill('Medals all round!');
    await readerPage.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(readerPage.getByRole('article', { name: 'Comment by Rita Reader' })).toContainText('Medals all round!');
    await expect(readerPage.getByRole('heading', { name: '1 Comment' })).toBeVisible();
    await readerPage.reload();
    await expect(readerPage.getByRole('article', { name: 'Comment by Rita Reader' })).toContainText('Medals all round!');
    await expect(readerPage.getByRole('heading', { name: '1 Comment' })).toBeVisible();
    await readerPage.getByRole('button', { name: /^Like, / }).click();
    await expect(readerPage.getByRole('button', { name: 'Like, 1' })).toHaveAttribute('aria-pressed', 'true');
    await screenshotWidths(readerPage, 'tweet', {
      ready: async (p) => {
        await expect(p.getByRole('article', { name: 'Comment by Rita Reader' })).toBeVisible();
        await expectNoPageOverflow(p);
      },
    });
  });

  await test.step('the owner sees the count, then deletes the tweet', async () => {
    await page.reload();
    await expect(tweet.getByRole('link', { name: '1 comment, open tweet' })).toBeVisible();
    await tweet.getByRole('button', { name: 'Tweet options' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete tweet' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText('No tweets')).toBeVisible();
    // Its page is gone too: the reader is sent home.
    await readerPage.reload();
    await expect(readerPage).toHaveURL(/\/$/);
    await readerPage.close();
  });
});

test('a viewer subscribes to a channel and sees its videos in the subscriptions feed', async ({ page, request }) => {
  const viewer = await createChannelUser(request, 'Sam Subscriber');
  const { userName } = creator.user;

  await signIn(page, viewer.account, '/subscriptions');
  await expect(page.getByText('No videos found of any Subscribed channels.')).toBeVisible();

  await page.goto(`/channel/@${userName}/videos`);
  const counts = page.getByText(/\d+ subscribers? · 1 video/);
  await expect(counts).toBeVisible();
  const before = Number((await counts.textContent())!.split(' ')[0]);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('button', { name: 'Subscribed' })).toHaveAttribute('aria-pressed', 'true');
  await expect(counts).toContainText(`${before + 1} subscriber`);

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Subscriptions' }).click();
  await expect(page).toHaveURL(/\/subscriptions$/);
  await expect(page.getByRole('link', { name: video.title }).first()).toBeVisible();

  // The viewer's own channel lists the channel under Subscribed, with the case-sensitive search.
  await page.goto(`/channel/@${viewer.user.userName}/subscribed`);
  const row = page.getByRole('list', { name: 'Subscribed channels' }).getByRole('link', { name: /Tess Tweeter/ });
  await expect(row).toContainText('1 subscriber');
  const search = page.getByRole('searchbox', { name: 'Search subscribed channels' });
  // Typed text is matched as typed against the lower-cased name (spec §5).
  await search.fill('Tess');
  await page.getByRole('button', { name: 'Search channels' }).click();
  await expect(page.getByText('No channels found')).toBeVisible();
  await search.fill('tess');
  await page.getByRole('button', { name: 'Search channels' }).click();
  await expect(row).toBeVisible();

  // Unsubscribe: the count goes back.
  await page.goto(`/channel/@${userName}/videos`);
  await page.getByRole('button', { name: 'Subscribed' }).click();
  await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveAttribute('aria-pressed', 'false');
  await expect(counts).toContainText(`${before} subscriber`);
});

test('a user renames and deletes a playlist', async ({ page, request }) => {
  const user = await createChannelUser(request, 'Pat Playlister');
  const name = uniqueName('Road trip ');
  const renamed = uniqueName('Long drives ');
  await user.send('post', '/playlists', { name, videoId: video._id }, 201);

  await signIn(page, user.account, '/playlists');
  await expect(page.getByRole('link', { name: `Play all: ${name}` })).toBeVisible();

  await screenshotWidths(page, 'my-playlists', {
    ready: async (p) => {
      await expect(p.getByRole('link', { name: `Play all: ${name}` })).toBeVisible();
      await expectNoPageOverflow(p);
    },
  });
  await page.getByRole('button', { name: `Options for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const field = page.getByRole('textbox', { name: 'Playlist name' });
  await field.fill(renamed);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Playlist updated successfully')).toBeVisible();
  await expect(page.getByRole('link', { name: `Play all: ${renamed}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('link', { name: `Play all: ${renamed}` })).toBeVisible();

  await page.getByRole('button', { name: `Options for ${renamed}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete playlist' });
  await expect(confirm).toContainText(renamed);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No playlists found')).toBeVisible();
  await expect(page.getByText("You haven't created any playlist.")).toBeVisible();
  await page.reload();
  await expect(page.getByText('No playlists found')).toBeVisible();
});
