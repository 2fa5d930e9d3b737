import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { VideoCard } from '@/components/media/video-card.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { CommentSection } from '@/features/comments/components/comment-section.tsx';
import { playlistQueryOptions } from '@/features/playlists/api/playlists-api.ts';
import { nextInPlaylist, PlaylistPanel } from '@/features/playlists/components/playlist-panel.tsx';
import { SaveToPlaylist } from '@/features/playlists/components/save-to-playlist.tsx';
import { useCountView, useSimilarVideos, useVideo } from '@/features/videos/api/videos-api.ts';
import { VideoDetails } from '@/features/videos/components/video-details.tsx';
import { VideoPlayer } from '@/features/videos/components/video-player.tsx';
import { useMediaQuery } from '@/lib/use-media-query.ts';
import type { Video } from '@/types/api.ts';

/** Tailwind's lg: from here the page has two columns (flex-row below). */
const TWO_COLUMNS = '(min-width: 1024px)';

function PlayerArea({ video, onEnded }: { video: Video; onEnded: () => void }) {
  const countView = useCountView();
  const src = video.videoFile?.url;
  if (video.status === 'failed' || (video.status === 'ready' && !src))
    return <Notice text="This video could not be processed." />;
  if (!src || video.status === 'processing')
    return <Notice text={`This video is still being processed${video.progress ? ` (${Math.round(video.progress * 100)}%)` : ''}. Please check back soon.`} />;
  return (
    <VideoPlayer
      videoId={video._id}
      src={src}
      poster={video.thumbnail?.url}
      storyboardUrl={video.storyboard?.url}
      duration={video.duration}
      title={video.title}
      onFirstPlay={(position) => void countView(video._id, position)}
      onEnded={onEnded}
    />
  );
}

function Notice({ text }: { text: string }) {
  return (
    <div className="flex aspect-video w-full items-center justify-center bg-zinc-900 p-6 text-center text-white sm:rounded-xl" role="status">
      {text}
    </div>
  );
}

function SimilarVideos({ videoId }: { videoId: string }) {
  const similar = useSimilarVideos(videoId);
  if (!similar.data?.length) return null;
  return (
    <section aria-labelledby="similar-title">
      <h2 id="similar-title" className="mb-3 font-semibold">
        Similar videos
      </h2>
      <ul className="flex flex-col gap-3">
        {similar.data.map((v) => (
          <li key={v._id}>
            <VideoCard video={v} layout="compact" />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Watch({ videoId, listId }: { videoId: string; listId: string | null }) {
  const navigate = useNavigate();
  const video = useVideo(videoId);
  const playlist = useQuery({ ...playlistQueryOptions(listId ?? ''), enabled: listId !== null });
  const inPlaylist = playlist.data ? playlist.data.videos.some((v) => v._id === videoId) : null;
  const wide = useMediaQuery(TWO_COLUMNS);

  // Spec §8: a failed load goes to the plain video page when a list was given, else home;
  // a playlist not containing the video (or failing to load) goes to the plain video page.
  useEffect(() => {
    if (video.isError) {
      console.warn('Loading the video failed', video.error);
      navigate(listId ? paths.video.getHref(videoId) : paths.home.getHref(), { replace: true });
    } else if (listId && (playlist.isError || inPlaylist === false)) {
      navigate(paths.video.getHref(videoId), { replace: true });
    }
  }, [video.isError, video.error, playlist.isError, inPlaylist, listId, videoId, navigate]);

  if (video.isPending) return <Spinner label="Loading video" className="py-24" />;
  if (!video.data) return null;

  const onEnded = () => {
    const next = playlist.data ? nextInPlaylist(playlist.data, videoId) : null;
    if (next && listId) navigate(paths.video.getHref(next._id, listId));
  };

  const panel = playlist.data && inPlaylist ? <PlaylistPanel playlist={playlist.data} videoId={videoId} /> : null;
  return (
    <div className="mx-auto flex max-w-[1700px] flex-col gap-6 py-0 sm:px-4 sm:py-4 lg:flex-row">
      <div className="min-w-0 flex-1">
        <PlayerArea video={video.data} onEnded={onEnded} />
        <div className="px-3 sm:px-0">
          <VideoDetails video={video.data} actions={<SaveToPlaylist videoId={videoId} />} />
          {/* One column: the playlist comes right under the video, not after every comment. */}
          {!wide && panel && <div className="mt-4">{panel}</div>}
          <CommentSection entityType="video" entityId={videoId} count={video.data.noOfComments ?? 0} />
        </div>
      </div>
      <aside className="flex w-full shrink-0 flex-col gap-6 px-3 sm:px-0 lg:w-[380px]" aria-label="Up next">
        {wide && panel}
        <SimilarVideos videoId={videoId} />
      </aside>
    </div>
  );
}

export default function WatchRoute() {
  const videoId = useParams().videoId ?? '';
  const listId = useSearchParams()[0].get('listId');
  // A new video is a new page: fresh player, comments and counters.
  return <Watch key={`${videoId}|${listId ?? ''}`} videoId={videoId} listId={listId} />;
}
