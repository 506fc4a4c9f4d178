import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ChevronDown, Heart, Music, Trash2 } from 'lucide-react';
import {
  ANONYMOUS_AUTHOR, canUseFeature, COMMUNITY_POST_MAX, COMMUNITY_STORY_MAX, CommunityMessages, MUSIC_CATEGORY_LABELS, type CommunityPost, type MusicTrack,
} from '@lv/contracts';
import { communityKeys, deletePost, fetchMusicTracks, fetchPosts, likePost, publishPost, submitStory } from '../../api/community.js';
import { ApiError } from '../../api/client.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { CommunityUpgradeNotice, TrackPlayer } from '../../components/media/TrackPlayer.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Label, Textarea } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { ConfirmDeleteDialog, ModalFrame } from '../../components/ui/modal.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { useUnsavedChanges } from '../../shell/UnsavedChangesProvider.js';
import { randomUuid } from '../../lib/uuid.js';
import { formatDateTime } from '../../lib/dates.js';

export const COMMUNITY_TEXT = {
  title: 'Parent Circle Community',
  intro: 'A circle of parents in the same place as you: music for hard days, a place to talk, and room for your story.',
  playlist: 'Legacy Music Playlist',
  emptyLibrary: 'The music library has no tracks yet. Its tracks are chosen and added by the people who run this Legacy Vault; when they add some, they will be listed here.',
  /** The project ships no music: say plainly whose the library is (issue 35). */
  libraryCurated: 'Music for hard days: motivation, meditation and voices of other parents, chosen by the people who run this Legacy Vault.',
  discussion: 'Discussion',
  postLabel: 'Share with the circle',
  noPosts: 'No one has posted yet. You can be the first.',
  postsFailed: 'The discussion could not be loaded.',
  posted: 'Posted to the circle',
  deleted: 'Post deleted',
  showName: (name: string) => `Sign with my name (${name})`,
  anonymousNote: `Posts and stories are signed “${ANONYMOUS_AUTHOR}” unless you choose to show your name. Your e-mail is never shown.`,
  storyLabel: 'Your story',
} as const;

/** Once a box is emptied by a save, the shell's "Unsaved changes" is checked again at once (not at its next 5 s round). */
function useRecheckWhenEmptied(text: string) {
  const { checkNow } = useUnsavedChanges();
  useEffect(() => {
    if (text === '') checkNow();
  }, [text, checkNow]);
}

/** An error for a toast: the server's words for a refusal, a plain line otherwise. */
const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

/** The playlist (spec 4: loads once, when the panel is first expanded). Collapsed by default. */
function Playlist() {
  const panelId = useId();
  const [expanded, setExpanded] = useState(false);
  const [opened, setOpened] = useState(false);
  const [playing, setPlaying] = useState<MusicTrack | null>(null);
  const tracks = useQuery({ queryKey: communityKeys.music, queryFn: ({ signal }) => fetchMusicTracks(signal), enabled: opened, retry: false, staleTime: Infinity });

  useEffect(() => {
    // Spec 8: the music toasts, once per load.
    if (tracks.error) toast.error(tracks.error instanceof ApiError ? CommunityMessages.couldNotLoadFiles(tracks.error.message) : CommunityMessages.failedToLoadTracks);
    else if (tracks.data?.length === 0) toast(CommunityMessages.noAudioFiles);
  }, [tracks.error, tracks.data]);

  const toggle = () => {
    setExpanded((value) => !value);
    setOpened(true);
  };

  let body;
  if (tracks.isPending) body = <Spinner label="Loading music tracks" />;
  else if (tracks.isError) body = <LoadFailed message={CommunityMessages.failedToLoadTracks} onRetry={() => void tracks.refetch()} />;
  else if (tracks.data.length === 0) {
    body = (
      <div className="rounded-xl border border-dashed border-border p-6 text-center" data-testid="music-empty">
        <p className="font-medium">{CommunityMessages.noAudioFiles}</p>
        <p className="mt-1 text-sm text-muted-foreground">{COMMUNITY_TEXT.emptyLibrary}</p>
      </div>
    );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        {playing ? <TrackPlayer key={playing.id} track={playing} autoPlay /> : null}
        <ul className="flex flex-col divide-y divide-border" aria-label="Tracks">
          {tracks.data.map((track) => (
            <li key={track.id} className="flex items-center justify-between gap-3 py-2">
              <span className="flex min-w-0 flex-col">
                <span className="truncate font-medium">{track.title}</span>
                <span className="text-xs text-muted-foreground">{MUSIC_CATEGORY_LABELS[track.category]}</span>
              </span>
              <Button size="sm" variant={playing?.id === track.id ? 'secondary' : 'outline'} aria-pressed={playing?.id === track.id} aria-label={`Play ${track.title}`} onClick={() => setPlaying(track)}>
                <Music aria-hidden="true" className="h-4 w-4" />
                Play
              </Button>
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <Card>
      <CardHeader>
        <h2 className="font-serif text-xl font-semibold">
          <button type="button" aria-expanded={expanded} aria-controls={panelId} onClick={toggle} className="flex w-full items-center justify-between gap-2 rounded-lg text-left focus-visible:outline-2 focus-visible:outline-ring">
            {COMMUNITY_TEXT.playlist}
            <ChevronDown aria-hidden="true" className={expanded ? 'h-5 w-5 rotate-180 transition' : 'h-5 w-5 transition'} />
          </button>
        </h2>
        <CardDescription>{COMMUNITY_TEXT.libraryCurated}</CardDescription>
      </CardHeader>
      <CardContent id={panelId} hidden={!expanded}>
        {opened ? body : null}
      </CardContent>
    </Card>
  );
}

function ShowNameChoice({ checked, onChange }: { checked: boolean; onChange: (value: boolean) => void }) {
  const { user } = useAuth();
  const name = user?.full_name?.trim();
  if (!name) return <p className="text-xs text-muted-foreground">{COMMUNITY_TEXT.anonymousNote}</p>;
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} className="h-4 w-4 accent-primary" />
        {COMMUNITY_TEXT.showName(name)}
      </label>
      <p className="text-xs text-muted-foreground">{COMMUNITY_TEXT.anonymousNote}</p>
    </div>
  );
}

function PostItem({ post }: { post: CommunityPost }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const replace = (next: CommunityPost) => queryClient.setQueryData<CommunityPost[]>(communityKeys.posts, (posts) => posts?.map((p) => (p.id === next.id ? next : p)));
  const like = useMutation({
    mutationFn: (liked: boolean) => likePost(post.id, liked),
    onSuccess: replace,
    onError: (error) => toast.error(messageOf(error, 'Could not save your like.')),
  });
  const remove = useMutation({
    mutationFn: () => deletePost(post.id),
    onSuccess: () => {
      queryClient.setQueryData<CommunityPost[]>(communityKeys.posts, (posts) => posts?.filter((p) => p.id !== post.id));
      setConfirming(false);
      toast.success(COMMUNITY_TEXT.deleted);
    },
    onError: (error) => toast.error(messageOf(error, 'Could not delete the post.')),
  });
  const liked = like.isPending ? like.variables : post.liked_by_me;
  return (
    <li>
      <article aria-label={`Post by ${post.author}`} className="rounded-xl border border-border p-4">
        <header className="flex items-baseline justify-between gap-2">
          <span className="font-medium">{post.mine ? `${post.author} (you)` : post.author}</span>
          <time dateTime={post.created_at} className="text-xs text-muted-foreground">
            {formatDateTime(post.created_at)}
          </time>
        </header>
        <p className="mt-2 whitespace-pre-wrap break-words">{post.content}</p>
        <footer className="mt-3 flex items-center gap-2">
          <Button size="sm" variant={liked ? 'secondary' : 'ghost'} aria-pressed={liked} aria-label={`Like post by ${post.author}`} disabled={like.isPending} onClick={() => like.mutate(!post.liked_by_me)}>
            <Heart aria-hidden="true" className={liked ? 'h-4 w-4 fill-current' : 'h-4 w-4'} />
            <span data-testid="like-count">{post.likes}</span>
          </Button>
          {post.mine ? (
            <Button size="sm" variant="ghost" aria-label="Delete your post" onClick={() => setConfirming(true)}>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
            </Button>
          ) : null}
        </footer>
      </article>
      <ConfirmDeleteDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Delete this post?"
        description="It leaves the discussion for everyone, with its likes."
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}

function Discussion() {
  const queryClient = useQueryClient();
  const textId = useId();
  const errorId = useId();
  const [content, setContent] = useState('');
  const [showName, setShowName] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useRecheckWhenEmptied(content);
  const posts = useQuery({ queryKey: communityKeys.posts, queryFn: ({ signal }) => fetchPosts(signal) });
  // The id is chosen once per draft, so a retry after a lost answer saves the post once.
  const [draftId, setDraftId] = useState(randomUuid);
  const publish = useMutation({
    mutationFn: () => publishPost({ id: draftId, content, show_name: showName }),
    onSuccess: (post) => {
      queryClient.setQueryData<CommunityPost[]>(communityKeys.posts, (list) => [post, ...(list ?? []).filter((p) => p.id !== post.id)]);
      setContent('');
      setDraftId(randomUuid());
      toast.success(COMMUNITY_TEXT.posted);
    },
    onError: (failure) => toast.error(messageOf(failure, 'Could not post. Please try again.')),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!content.trim()) {
      setError(CommunityMessages.postRequired);
      return;
    }
    setError(null);
    publish.mutate();
  };

  let list;
  if (posts.isPending) list = <Spinner label="Loading the discussion" />;
  else if (posts.error instanceof ApiError && posts.error.code === 'UPGRADE_REQUIRED') list = <CommunityUpgradeNotice id="discussion-upgrade" />;
  else if (posts.isError) list = <LoadFailed message={COMMUNITY_TEXT.postsFailed} onRetry={() => void posts.refetch()} />;
  else if (posts.data.length === 0) list = <p className="text-muted-foreground">{COMMUNITY_TEXT.noPosts}</p>;
  else {
    list = (
      <ul className="flex flex-col gap-3" aria-label="Posts">
        {posts.data.map((post) => <PostItem key={post.id} post={post} />)}
      </ul>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{COMMUNITY_TEXT.discussion}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <form onSubmit={submit} aria-label="New post" className="flex flex-col gap-3" noValidate>
          <Label htmlFor={textId}>{COMMUNITY_TEXT.postLabel}</Label>
          <Textarea
            id={textId}
            value={content}
            maxLength={COMMUNITY_POST_MAX}
            rows={3}
            onChange={(event) => setContent(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error ? <p id={errorId} role="alert" className="text-sm text-destructive">{error}</p> : null}
          <ShowNameChoice checked={showName} onChange={setShowName} />
          <Button type="submit" className="self-start" disabled={publish.isPending}>
            {publish.isPending ? <Spinner className="h-4 w-4" /> : null}
            Post
          </Button>
        </form>
        {list}
      </CardContent>
    </Card>
  );
}

/** "Submit Your Story" (spec 2, 4, 5): kept on the server for moderation; 'Please enter your story' when empty. */
function StoryDialog() {
  const storyId = useId();
  const errorId = useId();
  const [open, setOpen] = useState(false);
  const [story, setStory] = useState('');
  const [showName, setShowName] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useRecheckWhenEmptied(story);
  const [draftId, setDraftId] = useState(randomUuid);
  const send = useMutation({
    mutationFn: () => submitStory({ id: draftId, story, show_name: showName }),
    onSuccess: () => {
      toast.success(CommunityMessages.storySubmitted);
      setStory('');
      setDraftId(randomUuid());
      setOpen(false);
    },
    onError: (failure) => toast.error(messageOf(failure, 'Could not send your story. Please try again.')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!story.trim()) {
      setError(CommunityMessages.storyRequired);
      return;
    }
    setError(null);
    send.mutate();
  };
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        Submit Your Story
      </Button>
      <ModalFrame open={open} onOpenChange={(next) => (!send.isPending ? setOpen(next) : undefined)} title="Submit Your Story" description="Tell other parents what helped you. Stories are read with care before anything is shared." widthClass="max-w-lg">
        <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
          <Label htmlFor={storyId}>{COMMUNITY_TEXT.storyLabel}</Label>
          <Textarea
            id={storyId}
            value={story}
            rows={8}
            maxLength={COMMUNITY_STORY_MAX}
            onChange={(event) => setStory(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error ? <p id={errorId} role="alert" className="text-sm text-destructive">{error}</p> : null}
          <ShowNameChoice checked={showName} onChange={setShowName} />
          <Button type="submit" className="self-end" disabled={send.isPending}>
            {send.isPending ? <Spinner className="h-4 w-4" /> : null}
            Submit Story
          </Button>
        </form>
      </ModalFrame>
    </>
  );
}

/**
 * The Parent Circle (/community, /parent-circle, /parent-community): the music playlist, the
 * discussion and "Submit Your Story", for Pro and Legacy members and admins. Everyone else sees the
 * spec's upgrade notice; the services refuse them too.
 */
export function CommunityPage() {
  usePageTitle('Parent Circle');
  const { user } = useAuth();
  const allowed = canUseFeature(user, 'community');
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <header className="flex flex-col gap-2">
        <h1 className="font-serif text-3xl font-semibold">{COMMUNITY_TEXT.title}</h1>
        <p className="text-muted-foreground">{COMMUNITY_TEXT.intro}</p>
      </header>
      {allowed ? (
        <>
          <div className="flex justify-end">
            <StoryDialog />
          </div>
          <Playlist />
          <Discussion />
        </>
      ) : (
        <CommunityUpgradeNotice />
      )}
    </div>
  );
}
