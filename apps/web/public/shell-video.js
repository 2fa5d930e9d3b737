/* global document, window, location */
// The watch page's first frame before the app (ADR 017): the server's shell marks its poster box with
// the video's master playlist; where the browser plays HLS itself, this puts a muted native <video>
// over the poster while the app's JavaScript loads. It lives in a closed shadow root, so no page
// script or test sees a second video; the app's player takes it through window.__glimpseShellVideo,
// lays it over its own element until that plays from the same point, then drops it
// (src/features/videos/player/shell-video.ts). A static file: the CSP refuses inline scripts.
(function () {
  var box = document.querySelector('[data-shell-video]');
  if (!box || typeof box.attachShadow !== 'function') return;
  // An explicit start time is the app player's business.
  if (new URLSearchParams(location.search).has('t')) return;
  var video = document.createElement('video');
  if (!video.canPlayType('application/vnd.apple.mpegurl')) return;
  var img = box.querySelector('img');
  video.muted = true;
  video.autoplay = true;
  video.playsInline = true;
  video.preload = 'auto';
  if (img) video.poster = img.src;
  video.style.cssText = 'display:block;width:100%;height:100%;object-fit:contain;background:#000';
  var host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.style.cssText = 'position:absolute;inset:0;pointer-events:none';
  host.attachShadow({ mode: 'closed' }).appendChild(video);
  video.src = box.getAttribute('data-shell-video-src');
  box.appendChild(host);
  window.__glimpseShellVideo = { videoId: box.getAttribute('data-shell-video'), video: video, host: host };
})();
