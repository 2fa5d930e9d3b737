import { render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { CaptionsMenu, CaptionTracks } from './captions-menu.tsx';

const english = { lang: 'en', label: 'English', url: '/media/videos/v1/pub-x/captions/en-1.vtt' };

function Player({ captions }: { captions: (typeof english)[] }) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  return (
    <>
      <video ref={setVideo}>
        <CaptionTracks captions={captions} />
      </video>
      <CaptionsMenu video={video} captions={captions} id="cc" />
    </>
  );
}

describe('the player CC menu', () => {
  it('adds a subtitles track per caption and offers each language or Off', () => {
    const french = { lang: 'fr', label: 'Français', url: '/media/videos/v1/pub-x/captions/fr-1.vtt' };
    const { container } = render(<Player captions={[english, french]} />);
    const tracks = [...container.querySelectorAll('track')];
    expect(tracks.map((t) => [t.kind, t.srclang, t.label, t.getAttribute('src')])).toEqual([
      ['subtitles', 'en', 'English', english.url],
      ['subtitles', 'fr', 'Français', french.url],
    ]);
    // jsdom has no TextTrack: which track shows is checked in e2e/captions.spec.ts.
    const menu = screen.getByRole('combobox', { name: 'Subtitles/CC' });
    expect(within(menu).getAllByRole('option').map((o) => o.textContent)).toEqual(['Off', 'English', 'Français']);
  });

  it('is absent with one language (the Captions toggle covers it)', () => {
    render(<Player captions={[english]} />);
    expect(screen.queryByRole('combobox', { name: 'Subtitles/CC' })).toBeNull();
  });
});
