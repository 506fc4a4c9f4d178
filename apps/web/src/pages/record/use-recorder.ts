import { useCallback, useEffect, useRef, useState } from 'react';
import { RECORDER_TICK_MS, type MediaType } from '@lv/contracts';
import { isPermissionError, pickMimeType, recordedContentType } from './recorder-logic.js';

/** The recorder's states (spec, section 4 "Recorder"). */
export type RecorderStatus = 'idle' | 'starting' | 'recording' | 'paused' | 'stopped';

export interface RecordedMedia {
  blob: Blob;
  url: string;
  type: MediaType;
  durationSeconds: number;
}

export type StartFailure = { kind: 'permission' } | { kind: 'failed'; message: string };

export interface Recorder {
  status: RecorderStatus;
  /** Whole seconds recorded (pauses excluded). */
  elapsed: number;
  /** The camera's live picture while recording video. */
  liveStream: MediaStream | null;
  recording: RecordedMedia | null;
  start(type: MediaType): Promise<StartFailure | null>;
  pause: () => void;
  resume: () => void;
  /** Resolves with the recording once the recorder has handed over its last data. */
  stop: () => Promise<RecordedMedia | null>;
  /** Back to idle: the recording, its preview and the timer are dropped. */
  reset(): void;
  /** Shows an earlier recording (a restored draft) as if it had just been stopped. */
  restore(blob: Blob, type: MediaType, durationSeconds: number): void;
}

/**
 * MediaRecorder over getUserMedia: video (camera + microphone) or audio, recorded as WebM (MP4 where the browser records no WebM) in one-second
 * slices, with a timer that ticks every second while recording and holds while paused.
 */
export function useRecorder(): Recorder {
  const [status, setStatus] = useState<RecorderStatus>('idle');
  const [elapsed, setElapsed] = useState(0);
  const [liveStream, setLiveStream] = useState<MediaStream | null>(null);
  const [recording, setRecording] = useState<RecordedMedia | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const chunksRef = useRef<Blob[]>([]);
  const elapsedRef = useRef(0);
  const typeRef = useRef<MediaType>('video');
  const stoppedRef = useRef<((media: RecordedMedia | null) => void)[]>([]);
  const urlRef = useRef<string | null>(null);

  const releaseStream = useCallback(() => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    setLiveStream(null);
  }, []);

  const dropRecording = useCallback(() => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
    setRecording(null);
  }, []);

  // The timer: one tick a second while recording.
  useEffect(() => {
    if (status !== 'recording') return;
    const timer = window.setInterval(() => {
      elapsedRef.current += 1;
      setElapsed(elapsedRef.current);
    }, RECORDER_TICK_MS);
    return () => window.clearInterval(timer);
  }, [status]);

  // Leaving the page stops the camera and forgets the preview URL.
  useEffect(() => () => {
    if (recorderRef.current && recorderRef.current.state !== 'inactive') recorderRef.current.stop();
    streamRef.current?.getTracks().forEach((track) => track.stop());
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
  }, []);

  const start = useCallback(async (type: MediaType): Promise<StartFailure | null> => {
    dropRecording();
    typeRef.current = type;
    elapsedRef.current = 0;
    setElapsed(0);
    setStatus('starting');
    let stream: MediaStream;
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('This browser cannot record (no camera or microphone access).');
      stream = await navigator.mediaDevices.getUserMedia(type === 'video' ? { video: true, audio: true } : { audio: true });
    } catch (error) {
      setStatus('idle');
      return isPermissionError(error) ? { kind: 'permission' } : { kind: 'failed', message: (error as Error)?.message ?? String(error) };
    }
    try {
      const mimeType = pickMimeType(type, (mime) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(mime));
      const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      chunksRef.current = [];
      recorder.ondataavailable = (event) => {
        if (event.data.size > 0) chunksRef.current.push(event.data);
      };
      recorder.onstop = () => {
        // What the browser really recorded (WebM, or MP4 on Safari): the vault keeps it as such.
        const blob = new Blob(chunksRef.current, { type: recordedContentType(typeRef.current, recorder.mimeType || mimeType) });
        chunksRef.current = [];
        releaseStream();
        recorderRef.current = null;
        let media: RecordedMedia | null = null;
        if (blob.size > 0) {
          const url = URL.createObjectURL(blob);
          urlRef.current = url;
          media = { blob, url, type: typeRef.current, durationSeconds: elapsedRef.current };
        }
        setRecording(media);
        setStatus(media ? 'stopped' : 'idle');
        for (const resolve of stoppedRef.current.splice(0)) resolve(media);
      };
      streamRef.current = stream;
      recorderRef.current = recorder;
      setLiveStream(type === 'video' ? stream : null);
      recorder.start(1000);
      setStatus('recording');
      return null;
    } catch (error) {
      stream.getTracks().forEach((track) => track.stop());
      setStatus('idle');
      return { kind: 'failed', message: (error as Error)?.message ?? String(error) };
    }
  }, [dropRecording, releaseStream]);

  const pause = useCallback(() => {
    if (recorderRef.current?.state === 'recording') {
      recorderRef.current.pause();
      setStatus('paused');
    }
  }, []);

  const resume = useCallback(() => {
    if (recorderRef.current?.state === 'paused') {
      recorderRef.current.resume();
      setStatus('recording');
    }
  }, []);

  const stop = useCallback((): Promise<RecordedMedia | null> => {
    const recorder = recorderRef.current;
    if (!recorder || recorder.state === 'inactive') return Promise.resolve(null);
    return new Promise((resolve) => {
      stoppedRef.current.push(resolve);
      recorder.stop();
    });
  }, []);

  const reset = useCallback(() => {
    if (recorderRef.current && recorderRef.current.state !== 'inactive') {
      recorderRef.current.onstop = null;
      recorderRef.current.stop();
      recorderRef.current = null;
    }
    releaseStream();
    dropRecording();
    elapsedRef.current = 0;
    setElapsed(0);
    setStatus('idle');
  }, [dropRecording, releaseStream]);

  const restore = useCallback((blob: Blob, type: MediaType, durationSeconds: number) => {
    dropRecording();
    const url = URL.createObjectURL(blob);
    urlRef.current = url;
    typeRef.current = type;
    elapsedRef.current = durationSeconds;
    setElapsed(durationSeconds);
    setRecording({ blob, url, type, durationSeconds });
    setStatus('stopped');
  }, [dropRecording]);

  return { status, elapsed, liveStream, recording, start, pause, resume, stop, reset, restore };
}
