import { X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { ImagePickButton } from '@/components/media/image-pick-button.tsx';
import type { Channel, Tweet } from '@/components/media/types.ts';
import { Button, IconButton } from '@/components/ui/button.tsx';
import { useObjectUrl } from '@/components/ui/use-object-url.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { createTweet } from '../api/channel-api.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** The owner's composer (spec §2, §4, §5): trimmed text, optional image with preview and discard. */
export function TweetComposer({ channel, onPosted }: { channel: Channel; onPosted: (tweet: Tweet) => void }) {
  const [content, setContent] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const preview = useObjectUrl(image);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const text = content.trim();
    if (!text || busy) return;
    setBusy(true);
    try {
      const { data, message } = await createTweet(text, image);
      const owner = { _id: channel._id, userName: channel.userName, fullName: channel.fullName, avatar: channel.avatar };
      // A new tweet starts with zero likes, dislikes and comments (spec §4).
      onPosted({ ...data, owner: data.owner ?? owner, image: data.image ?? null, likes: 0, dislikes: 0, comments: 0, likeStatus: 0, state: data.state ?? 'published' });
      // A tweet with a watched word waits for a moderator; its author sees it marked and is told so.
      if (data.state === 'held') toast(message, { id: message });
      setContent('');
      setImage(null);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-label={t('tweet.new')} className="mb-4 rounded-xl border border-line p-3">
      <textarea
        aria-label={t('tweet.text')}
        placeholder={t('tweet.placeholder')}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        rows={3}
        className="w-full resize-y rounded-lg border border-line-strong p-2 text-sm"
      />
      {preview && (
        <div className="relative mt-2 inline-block">
          <img src={preview} alt={t('tweet.imagePreview')} className="max-h-48 rounded-lg border border-line" />
          <IconButton label={t('tweet.discardImage')} onClick={() => setImage(null)} className="absolute right-1 top-1 size-8 bg-surface/90">
            <X className="size-4" aria-hidden />
          </IconButton>
        </div>
      )}
      <div className="mt-2 flex items-center justify-between gap-2">
        <ImagePickButton onPick={setImage} />
        <Button type="submit" loading={busy} disabled={!content.trim()}>
          {t('tweet.post')}
        </Button>
      </div>
    </form>
  );
}
