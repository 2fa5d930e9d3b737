import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Profiler } from 'react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { HLS_TYPE, SHELL_VIDEO_ID } from '@glimpse/contract/first-paint';
import { makeVideo } from '@/test/fixtures.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';
import { VideoPlayer } from '../components/video-player.tsx';
import { readPrefs, savePrefs } from './prefs.ts';

const chaptered = ['A tour of the clip.', '', '0:00 Intro', '0:40 The middle part', '1:30 Wrap-up'].join('\n');

function watch(path: string, description = chaptered) {
  fakeApi((url) => {
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'videos/v1') return { data: { video: makeVideo(1, { description, duration: 125 }) } };
    if (p === 'videos/v1/similar') return { data: { videos: [] } };
    if (p === 'comments/video/v1') return { data: { comments: [], hasNextPage: false, nextCursor: null } };
    return undefined;
  });
  // jsdom plays nothing: play() is the browser's.
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  renderApp(path);
}

const player = () => screen.getByLabelText('Video 1', { selector: 'video' }) as HTMLVideoElement;
const at = (video: HTMLVideoElement, seconds: number) => {
  video.currentTime = seconds;
  fireEvent.timeUpdate(video);
};

describe('chapters', () => {
  it('lists the chapters under the video, marks the current one and seeks; the seek bar shows the segments', async () => {
    watch('/video/v1');
    const list = await screen.findByRole('region', { name: 'Chapters' });
    const buttons = within(list).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['0:00Intro', '0:40The middle part', '1:30Wrap-up']);
    await waitFor(() => expect(buttons[0]).toHaveAttribute('aria-current', 'true'));
    // Two gaps between three segments.
    expect(document.querySelectorAll('[data-chapter-marker]')).toHaveLength(2);

    await userEvent.click(buttons[1]!);
    expect(player().currentTime).toBe(40);
    fireEvent.timeUpdate(player());
    await waitFor(() => expect(buttons[1]).toHaveAttribute('aria-current', 'true'));
    expect(buttons[0]).not.toHaveAttribute('aria-current');
    // The current chapter next to the clock, and in the slider's value for screen readers.
    expect(screen.getByText(/^Chapter:/).parentElement).toHaveTextContent('The middle part');
    expect(screen.getByRole('slider', { name: 'Seek' })).toHaveAttribute('aria-valuetext', '0:40 of 2:05, The middle part');

    // Playing on into the last chapter moves the mark; focusing the seek bar shows its title and time.
    at(player(), 100);
    await waitFor(() => expect(buttons[2]).toHaveAttribute('aria-current', 'true'));
    fireEvent.focus(screen.getByRole('slider', { name: 'Seek' }));
    expect(screen.getAllByText('Wrap-up').length).toBeGreaterThan(2);
    expect(screen.getByText('1:40', { exact: true })).toBeInTheDocument();
  });

  it('shows no chapters when the description breaks a rule', async () => {
    watch('/video/v1', ['0:05 Intro', '0:40 Middle', '1:30 End'].join('\n'));
    expect(await screen.findByRole('heading', { name: 'Video 1', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Chapters' })).not.toBeInTheDocument();
    expect(document.querySelectorAll('[data-chapter-marker]')).toHaveLength(0);
  });
});

describe('player controls', () => {
  it('starts at ?t=, and offers speed, volume, shortcuts help and theatre mode, remembering the choices', async () => {
    watch('/video/v1?t=1m5s');
    await screen.findByRole('heading', { name: 'Video 1', level: 1 });
    fireEvent.loadedMetadata(player());
    expect(player().currentTime).toBe(65);

    const speed = screen.getByRole('combobox', { name: 'Playback speed' });
    expect(within(speed).getAllByRole('option').map((o) => o.textContent)).toEqual(['0.25x', '0.5x', '0.75x', '1x', '1.25x', '1.5x', '1.75x', '2x']);
    await userEvent.selectOptions(speed, '2x');
    expect(player().playbackRate).toBe(2);
    fireEvent.rateChange(player());
    expect(readPrefs().speed).toBe(2);
    // < steps down.
    fireEvent.keyDown(document.body, { key: '<' });
    expect(player().playbackRate).toBe(1.75);

    fireEvent.change(screen.getByRole('slider', { name: 'Volume' }), { target: { value: '0.3' } });
    expect(player().volume).toBeCloseTo(0.3);
    fireEvent.volumeChange(player());
    expect(readPrefs().volume).toBeCloseTo(0.3);
    expect(screen.getByRole('slider', { name: 'Volume' })).toHaveAttribute('aria-valuetext', '30%');

    // Digits jump to a share of the video; not while typing in a field.
    fireEvent.keyDown(document.body, { key: '4' });
    expect(player().currentTime).toBe(50);
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search' }), { key: '8' });
    expect(player().currentTime).toBe(50);

    const theatre = screen.getByRole('button', { name: 'Theatre mode' });
    expect(theatre).toHaveAttribute('aria-pressed', 'false');
    fireEvent.keyDown(document.body, { key: 't' });
    expect(theatre).toHaveAttribute('aria-pressed', 'true');
    expect(readPrefs().theatre).toBe(true);

    fireEvent.keyDown(document.body, { key: '?' });
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Play or pause')).toBeInTheDocument();
    expect(within(help).getByText('Captions on or off')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('applies the remembered volume and speed to the next video', async () => {
    savePrefs({ volume: 0.5, speed: 1.5 });
    watch('/video/v1');
    await screen.findByRole('heading', { name: 'Video 1', level: 1 });
    expect(player().volume).toBe(0.5);
    expect(player().playbackRate).toBe(1.5);
    expect(screen.getByRole('combobox', { name: 'Playback speed' })).toHaveValue('1.5');
  });

  it('turns captions on and off on whatever text tracks the video has, remembering the language', async () => {
    watch('/video/v1');
    await screen.findByRole('heading', { name: 'Video 1', level: 1 });
    // No caption track: no button.
    expect(screen.queryByRole('button', { name: 'Captions' })).not.toBeInTheDocument();
    const video = player();
    // jsdom has no text tracks: the browser's list, as plain objects (a chapters track is not captions).
    const en = { kind: 'captions', language: 'en', mode: 'disabled' };
    const fr = { kind: 'subtitles', language: 'fr', mode: 'disabled' };
    const chapters = { kind: 'chapters', language: 'en', mode: 'hidden' };
    Object.defineProperty(video, 'textTracks', { value: [en, chapters, fr], configurable: true });
    savePrefs({ captions: 'fr' });
    fireEvent.keyDown(document.body, { key: 'c' });
    expect([en.mode, fr.mode]).toEqual(['disabled', 'showing']);
    fireEvent.loadedMetadata(video);
    const cc = await screen.findByRole('button', { name: 'Captions' });
    expect(cc).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(cc);
    expect([en.mode, fr.mode, chapters.mode]).toEqual(['disabled', 'disabled', 'hidden']);
    expect(readPrefs().captions).toBeNull();
    expect(cc).toHaveAttribute('aria-pressed', 'false');

    // Captions left on in English: the next load shows the English track by itself.
    savePrefs({ captions: 'en' });
    fireEvent.loadedMetadata(video);
    expect([en.mode, fr.mode]).toEqual(['showing', 'disabled']);
    await waitFor(() => expect(cc).toHaveAttribute('aria-pressed', 'true'));
  });
});

describe('a video still being made (ADR 019)', () => {
  it('plays its lowest rung and loads the master playlist again when a rung is added, where playback was, without reloading the page', async () => {
    const renditions = (ready: number) => ['240p', '360p'].map((name, i) => ({ name, ready: i < ready }));
    let answers = 0;
    fakeApi((url) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'videos/v1') {
        answers += 1;
        return { data: { video: makeVideo(1, { progress: answers > 1 ? 1 : 0.2, renditions: renditions(answers > 1 ? 2 : 1) }) } };
      }
      if (p === 'videos/v1/similar') return { data: { videos: [] } };
      if (p === 'comments/video/v1') return { data: { comments: [], hasNextPage: false, nextCursor: null } };
      return undefined;
    });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    // jsdom has no Media Source Extensions: the player hands the playlist to the element, as native HLS does.
    const loads: string[] = [];
    const setSrc = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'src')!.set!;
    vi.spyOn(HTMLMediaElement.prototype, 'src', 'set').mockImplementation(function (this: HTMLMediaElement, v: string) {
      loads.push(v);
      setSrc.call(this, v);
    });
    renderApp('/video/v1');
    await waitFor(() => expect(loads).toEqual(['/media/v1/master.m3u8']));
    const element = player();
    fireEvent.loadedMetadata(element);
    at(element, 42);
    // Playing (jsdom's element never plays by itself).
    Object.defineProperty(element, 'paused', { value: false, configurable: true });
    const play = vi.mocked(HTMLMediaElement.prototype.play);
    play.mockClear();

    // The page polls the video while rungs are to come: the new one reaches the same player.
    await waitFor(() => expect(loads).toEqual(['/media/v1/master.m3u8', '/media/v1/master.m3u8']), { timeout: 10_000 });
    expect(player()).toBe(element);
    // A new source starts at 0 in a browser: the player puts playback back where it was.
    element.currentTime = 0;
    fireEvent.loadedMetadata(element);
    expect(element.currentTime).toBe(42);
    expect(play).toHaveBeenCalled();
    // Every rung ready: no more polling, no more loads.
    const polled = answers;
    await new Promise((r) => setTimeout(r, 5000));
    expect(answers).toBe(polled);
    expect(loads).toHaveLength(2);
  }, 30_000);
});

describe("the shell's video (ADR 017, addendum 5)", () => {
  /** The server's shell video: playing the source the watch page has by the time the app renders. */
  function shellVideo(src: string) {
    const video = document.createElement('video');
    video.id = SHELL_VIDEO_ID;
    video.controls = true;
    video.innerHTML = `<source src="${src}" type="${HLS_TYPE}" />`;
    document.body.append(video);
    return video;
  }

  it('is adopted by the player as it is: no second load, its playback and first play counted', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === HLS_TYPE ? 'maybe' : ''));
    const loads = vi.spyOn(HTMLMediaElement.prototype, 'src', 'set');
    const shell = shellVideo('/media/v1/master.m3u8');
    Object.defineProperty(shell, 'readyState', { value: HTMLMediaElement.HAVE_ENOUGH_DATA, configurable: true });
    Object.defineProperty(shell, 'paused', { value: false, configurable: true });
    const calls = fakeApi((url) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'videos/v1') return { data: { video: makeVideo(1, { duration: 125 }) } };
      if (p === 'videos/v1/views') return { data: { counted: true, views: 11 } };
      return undefined;
    });
    renderApp('/video/v1?t=30');
    await screen.findByRole('heading', { name: 'Video 1', level: 1 });
    expect(player()).toBe(shell);
    expect(shell.closest('[role="region"]')).toHaveAccessibleName('Video player');
    expect(loads).not.toHaveBeenCalled();
    expect(shell.querySelector('source')).not.toBeNull();
    // The browser's controls gave way to the player's.
    expect(shell.controls).toBe(false);
    // Its metadata was there already: ?t= applies at once; it plays, and its first play counts.
    expect(shell.currentTime).toBe(30);
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/v1/videos/v1/views' && c.method === 'POST')).toBe(true));
    // Taken once: no later player finds it.
    expect(document.getElementById(SHELL_VIDEO_ID)).toBeNull();
  });

  it('is adopted playing in one render: the controls start as the video is, nothing renders again in the commit', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === HLS_TYPE ? 'maybe' : ''));
    const shell = shellVideo('/media/v1/master.m3u8');
    Object.defineProperty(shell, 'readyState', { value: HTMLMediaElement.HAVE_ENOUGH_DATA, configurable: true });
    Object.defineProperty(shell, 'paused', { value: false, configurable: true });
    Object.defineProperty(shell, 'duration', { value: 125, configurable: true });
    const phases: string[] = [];
    render(
      <Profiler id="player" onRender={(_id, phase) => phases.push(phase)}>
        <VideoPlayer videoId="v1" src="/media/v1/master.m3u8" title="Video 1" duration={100} />
      </Profiler>,
    );
    expect(player()).toBe(shell);
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(screen.getByText('2:05', { exact: false })).toBeInTheDocument();
    // Effects that only catch up with the video (its metadata, its playback) rendered nothing again.
    expect(phases).toEqual(['mount']);
  });

  it('is stopped, not adopted, when the player plays another source', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === HLS_TYPE ? 'maybe' : ''));
    const load = vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
    const shell = shellVideo('/media/elsewhere/master.m3u8');
    watch('/video/v1');
    await screen.findByRole('heading', { name: 'Video 1', level: 1 });
    expect(player()).not.toBe(shell);
    expect(player().getAttribute('src')).toBe('/media/v1/master.m3u8');
    expect(shell.querySelector('source')).toBeNull();
    expect(load.mock.contexts).toContain(shell);
    shell.remove();
  });
});
