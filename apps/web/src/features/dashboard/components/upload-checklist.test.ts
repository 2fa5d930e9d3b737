import { describe, expect, it } from 'vitest';
import { setLocale } from '@/lib/i18n/i18n.ts';
import { missingFields, missingHint, titleFromFileName } from './upload-checklist.ts';
import { frameSize, frameTimes } from './video-frames.ts';

describe('the title made from a file name', () => {
  it.each([
    ['IMG_2024-05-01_beach.mp4', 'IMG 2024 05 01 beach'],
    ['My.Holiday.Film.mov', 'My Holiday Film'],
    ['  spaced   out__name  .webm', 'spaced out name'],
    ['concert+encore.MKV', 'concert encore'],
    ['no extension', 'no extension'],
    ['Café à Paris.mp4', 'Café à Paris'],
    ['.mp4', ''],
  ])('%s -> %s', (name, title) => {
    expect(titleFromFileName(name)).toBe(title);
  });

  it('keeps within the title limit, never cutting a character in two', () => {
    expect(titleFromFileName(`${'a'.repeat(150)}.mp4`)).toBe('a'.repeat(100));
    expect(titleFromFileName(`${'a'.repeat(99)}😀tail.mp4`)).toBe('a'.repeat(99));
    expect(titleFromFileName(`${'a'.repeat(97)} 😀.mp4`)).toBe(`${'a'.repeat(97)} 😀`);
    expect(titleFromFileName(`${'a'.repeat(98)} 😀.mp4`)).toBe('a'.repeat(98));
    expect(titleFromFileName('one two three.mp4', 8)).toBe('one two');
  });
});

describe('what the upload still needs (spec §5)', () => {
  const complete = { file: {}, thumbnail: {}, title: 'Cats', description: 'About cats' };

  it('lists the missing or blank fields in the order of the form', () => {
    expect(missingFields({ file: null, thumbnail: null, title: '', description: '' })).toEqual(['video', 'thumbnail', 'title', 'description']);
    expect(missingFields({ ...complete, title: '   ', description: '\n\t' })).toEqual(['title', 'description']);
    expect(missingFields({ ...complete, thumbnail: null })).toEqual(['thumbnail']);
    expect(missingFields(complete)).toEqual([]);
  });

  it('says it as one sentence in the active language', async () => {
    expect(missingHint(['video', 'thumbnail', 'title', 'description'])).toBe('To upload, choose a video file, choose a thumbnail, add a title, and add a description.');
    expect(missingHint(['thumbnail', 'description'])).toBe('To upload, choose a thumbnail and add a description.');
    expect(missingHint(['description'])).toBe('To upload, add a description.');
    expect(missingHint([])).toBe('Ready to upload.');
    await setLocale('fr', { remember: false });
    expect(missingHint(['thumbnail', 'title', 'description'])).toBe('Pour envoyer, choisissez une miniature, ajoutez un titre et ajoutez une description.');
    expect(missingHint([])).toBe('Prêt à envoyer.');
    await setLocale('es', { remember: false });
    expect(missingHint(['title', 'description'])).toBe('Para subir, añade un título y añade una descripción.');
  });
});

describe('suggested frames', () => {
  it('are taken at 10%, 50% and 90% of a known duration', () => {
    expect(frameTimes(20)).toEqual([
      { position: 0.1, time: 2 },
      { position: 0.5, time: 10 },
      { position: 0.9, time: 18 },
    ]);
    expect(frameTimes(Number.POSITIVE_INFINITY)).toEqual([]);
    expect(frameTimes(Number.NaN)).toEqual([]);
    expect(frameTimes(0)).toEqual([]);
  });

  it('are drawn at the video size shrunk into 1280x720, aspect kept, never grown', () => {
    expect(frameSize(1920, 1080)).toEqual({ width: 1280, height: 720 });
    expect(frameSize(320, 180)).toEqual({ width: 320, height: 180 });
    expect(frameSize(1080, 1920)).toEqual({ width: 405, height: 720 });
    expect(frameSize(3840, 1600)).toEqual({ width: 1280, height: 533 });
    expect(frameSize(1920, 1080, undefined, 0.5)).toEqual({ width: 640, height: 360 });
  });
});
