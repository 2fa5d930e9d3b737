/** The queue of transcodes: uploads and the admin's retry enqueue, the transcode module runs them. */
export const TRANSCODE_QUEUE = 'transcode';
