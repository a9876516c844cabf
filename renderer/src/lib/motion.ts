/** "smooth" scrolling, or an instant jump when the system asks for reduced motion (WCAG 2.3.3). */
export function scrollBehavior(): ScrollBehavior {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}
