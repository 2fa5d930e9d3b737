import { describe, expect, it } from 'vitest';
import { setLocale } from '@/lib/i18n/i18n.ts';
import { fileProblem } from './upload-limits.ts';

const file = (name: string, type: string, size = 1) => new File([new Uint8Array(size)], name, { type });

describe('fileProblem (spec §5)', () => {
  it("keeps the spec's English words, and says them in the active language", async () => {
    const problems = () => [
      fileProblem(file('a.gif', 'image/gif'), 'image', 1),
      fileProblem(file('notes.txt', 'text/plain'), 'video', 1),
      fileProblem(file('big.png', 'image/png', 1024 * 1024 + 1), 'image', 1),
      fileProblem(file('ok.jpg', 'image/jpeg', 1024 * 1024), 'image', 1),
    ];
    expect(problems()).toEqual([
      'Only png and jpeg images are allowed',
      'Upload a video file (mp4, mov, m4v, webm, mkv, avi or 3gp)',
      'File size should not exceed 1MB',
      null,
    ]);
    await setLocale('fr', { remember: false });
    expect(problems()).toEqual([
      'Seules les images png et jpeg sont acceptées',
      'Envoyez un fichier vidéo (mp4, mov, m4v, webm, mkv, avi ou 3gp)',
      'La taille du fichier ne doit pas dépasser 1 Mo',
      null,
    ]);
  });
});
