import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { splitTimestamps, TimestampText } from './timestamp-text.tsx';

describe('splitTimestamps', () => {
  it('cuts out m:ss, mm:ss and h:mm:ss with their seconds', () => {
    expect(splitTimestamps('Intro at 0:05, the jump at 1:23 and the end at 01:02:03.', 4000)).toEqual([
      'Intro at ',
      { text: '0:05', seconds: 5 },
      ', the jump at ',
      { text: '1:23', seconds: 83 },
      ' and the end at ',
      { text: '01:02:03', seconds: 3723 },
      '.',
    ]);
    expect(splitTimestamps('(12:34)', 800)).toEqual(['(', { text: '12:34', seconds: 754 }, ')']);
  });

  it('leaves alone times beyond the video, impossible ones and digits that are part of something else', () => {
    expect(splitTimestamps('see 2:06 or 2:05', 125)).toEqual(['see 2:06 or ', { text: '2:05', seconds: 125 }]);
    for (const text of ['1:75', 'ratio 123:45', '1:23:456', 'v1:23', '1:23pm', '10:30:45:12', 'a 1:2 b']) expect(splitTimestamps(text, 1e6)).toEqual([text]);
    expect(splitTimestamps('', 100)).toEqual([]);
  });
});

describe('TimestampText', () => {
  const links = (onSeek = vi.fn()) => ({ duration: 300, href: (s: number) => `/video/v1?t=${s}`, onSeek });

  it('links each timestamp to the page at that time; a plain click seeks in place instead', async () => {
    const onSeek = vi.fn();
    render(
      <p>
        <TimestampText text="Best part 1:23, again at 4:05, not 9:00" links={links(onSeek)} />
      </p>,
    );
    const first = screen.getByRole('link', { name: 'Play from 1:23' });
    expect(first).toHaveAttribute('href', '/video/v1?t=83');
    expect(first).toHaveTextContent('1:23');
    expect(screen.getByRole('link', { name: 'Play from 4:05' })).toHaveAttribute('href', '/video/v1?t=245');
    expect(screen.getAllByRole('link')).toHaveLength(2);
    await userEvent.click(first);
    expect(onSeek).toHaveBeenCalledWith(83);
    expect(window.location.search).toBe('');
  });

  it('writes markup in the text as text, and without links it is the plain text', () => {
    const text = '<img src=x onerror=alert(1)> at 0:10 <b>bold</b>';
    const { container } = render(
      <p>
        <TimestampText text={text} links={links()} />
      </p>,
    );
    expect(container.querySelector('img, b')).toBeNull();
    expect(container.textContent).toBe(text);
    const { container: plain } = render(
      <p>
        <TimestampText text="at 0:10" />
      </p>,
    );
    expect(plain.querySelector('a')).toBeNull();
    expect(plain.textContent).toBe('at 0:10');
  });
});
