// An SVG drawing the user pans (drag) and zooms (wheel, buttons), fitted to its content at first: the
// control-flow graph and the relation graphs draw inside it.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

interface View {
  x: number;
  y: number;
  scale: number;
}

/** A region of the drawing, in its own units. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PanZoomProps {
  /** Size of what is drawn, in its own units. */
  width: number;
  height: number;
  label: string;
  /** The drawing, or a function of the current scale (to leave out what is too small to read). */
  children: ReactNode | ((scale: number) => ReactNode);
  /** Fitting never shrinks the drawing below this: a big one opens at its top, readable, to pan over. */
  minScale?: number;
  /** A region to keep in view (a selection): when it changes and lies outside the view, it is centred. */
  focus?: Region | null;
  /** Height of the viewport in CSS pixels. */
  viewportHeight?: number;
  /**
   * What the drawing is to assistive technology: one image (its label says it all), or a group whose
   * content is read too — links drawn in it are then real links.
   */
  role?: 'img' | 'group';
}

const MIN_SCALE = 0.05;
const MAX_SCALE = 4;

export function PanZoom({
  width,
  height,
  label,
  children,
  minScale = MIN_SCALE,
  focus = null,
  viewportHeight = 560,
  role = 'img',
}: PanZoomProps) {
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View>({ x: 0, y: 0, scale: 1 });
  const drag = useRef<{ x: number; y: number } | null>(null);

  const fit = useCallback(() => {
    const w = box.current?.clientWidth ?? 800;
    const scale = Math.max(minScale, Math.min(1, w / (width + 40), viewportHeight / (height + 40)));
    // Centred when it fits across, else from its left edge.
    setView({ scale, x: Math.max(20, (w - width * scale) / 2), y: 20 * scale });
  }, [width, height, viewportHeight, minScale]);
  useEffect(fit, [fit]);

  const { x: fx = 0, y: fy = 0, width: fw = 0, height: fh = 0 } = focus ?? {};
  const hasFocus = focus !== null;
  useEffect(() => {
    if (!hasFocus) return;
    const w = box.current?.clientWidth ?? 800;
    setView((v) => {
      const left = v.x + fx * v.scale;
      const top = v.y + fy * v.scale;
      const inView = left >= 0 && top >= 0 && left + fw * v.scale <= w && top + fh * v.scale <= viewportHeight;
      return inView ? v : { ...v, x: w / 2 - (fx + fw / 2) * v.scale, y: viewportHeight / 2 - (fy + fh / 2) * v.scale };
    });
  }, [hasFocus, fx, fy, fw, fh, viewportHeight]);

  const zoom = (factor: number, cx: number, cy: number) =>
    setView((v) => {
      const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, v.scale * factor));
      const k = scale / v.scale;
      return { scale, x: cx - (cx - v.x) * k, y: cy - (cy - v.y) * k };
    });

  // A non-passive listener: React's onWheel cannot prevent the page from scrolling.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const centre = () => [(box.current?.clientWidth ?? 800) / 2, viewportHeight / 2] as const;
  return (
    <div className="pan-zoom">
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => zoom(1.25, ...centre())} aria-label="Zoom in">
          +
        </button>
        <button type="button" className="secondary" onClick={() => zoom(0.8, ...centre())} aria-label="Zoom out">
          −
        </button>
        <button type="button" className="secondary" onClick={fit}>
          Fit
        </button>
      </div>
      <div
        ref={box}
        className="pan-zoom-viewport"
        style={{ height: viewportHeight }}
        onPointerDown={(e) => {
          if ((e.target as Element).closest('[data-interactive]')) return;
          drag.current = { x: e.clientX, y: e.clientY };
          e.currentTarget.setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          if (!d) return;
          drag.current = { x: e.clientX, y: e.clientY };
          setView((v) => ({ ...v, x: v.x + e.clientX - d.x, y: v.y + e.clientY - d.y }));
        }}
        onPointerUp={() => (drag.current = null)}
      >
        <svg role={role} aria-label={label} width="100%" height="100%">
          <g transform={`translate(${view.x} ${view.y}) scale(${view.scale})`}>
            {typeof children === 'function' ? children(view.scale) : children}
          </g>
        </svg>
      </div>
    </div>
  );
}
