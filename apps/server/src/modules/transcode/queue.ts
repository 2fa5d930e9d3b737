import type { ProbeResult } from '@glimpse/media';

/** The queue of transcodes: uploads and the admin's retry enqueue, the transcode module runs them. */
export const TRANSCODE_QUEUE = 'transcode';

/** A transcode job's payload: what the enqueuer (an upload, a re-transcode) hands the job. */
export interface TranscodePayload {
  videoId: string;
  /** The upload's reading of the source, so the job need not read it again; absent on a re-transcode. */
  probe?: ProbeResult;
}
