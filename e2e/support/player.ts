import type { Page } from '@playwright/test';

declare global {
  interface Window {
    /** Number of 'playing' events seen on any media element since the page loaded. */
    __glimpsePlaying?: number;
  }
}

/** Counts 'playing' events (they do not bubble, so listen in the capture phase); call before page.goto. */
export async function trackPlayback(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__glimpsePlaying = 0;
    document.addEventListener('playing', () => (window.__glimpsePlaying = (window.__glimpsePlaying ?? 0) + 1), true);
  });
}

/** Waits until the page's <video> fired 'playing' and its clock moves past `seconds`. */
export async function waitForPlaying(page: Page, seconds = 0.5): Promise<void> {
  await page.waitForFunction(
    (min) => {
      const video = document.querySelector('video');
      return (window.__glimpsePlaying ?? 0) > 0 && video !== null && !video.paused && video.currentTime > min;
    },
    seconds,
    { timeout: 30_000 },
  );
}

interface CdpNode {
  nodeId: number;
  attributes?: string[];
  children?: CdpNode[];
  shadowRoots?: CdpNode[];
}

/**
 * Where Chromium draws the page's captions: the box of its first <video>'s showing cues (the
 * `-webkit-media-text-track-display` part of the element's own shadow tree, which scripts cannot
 * reach; read through the DevTools protocol), in CSS px of the viewport; null without a cue on screen.
 * `transition` is the cue container's computed transition-duration.
 */
export async function captionBox(page: Page): Promise<{ top: number; bottom: number; transition: string } | null> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: CdpNode };
    const parts: Record<string, CdpNode> = {};
    const walk = (node: CdpNode) => {
      const attrs = node.attributes ?? [];
      const pseudo = attrs[attrs.indexOf('pseudo') + 1];
      if (attrs.includes('pseudo') && pseudo && !parts[pseudo]) parts[pseudo] = node;
      [...(node.children ?? []), ...(node.shadowRoots ?? [])].forEach(walk);
    };
    walk(root);
    const cue = parts['-webkit-media-text-track-display'];
    const container = parts['-webkit-media-text-track-container'];
    if (!cue || !container) return null;
    const { model } = (await cdp.send('DOM.getBoxModel', { nodeId: cue.nodeId })) as { model: { border: number[] } };
    const ys = [model.border[1]!, model.border[3]!, model.border[5]!, model.border[7]!];
    const { computedStyle } = (await cdp.send('CSS.getComputedStyleForNode', { nodeId: container.nodeId })) as { computedStyle: { name: string; value: string }[] };
    return { top: Math.min(...ys), bottom: Math.max(...ys), transition: computedStyle.find((p) => p.name === 'transition-duration')?.value ?? '' };
  } finally {
    await cdp.detach();
  }
}
