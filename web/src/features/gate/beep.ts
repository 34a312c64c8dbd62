/**
 * The gate's sounds, made with WebAudio oscillators (no audio files): allowed is two short high
 * beeps, refused one long low buzz, so an operator who is not looking still knows. Browsers only
 * start audio after a user gesture; a scanner's keystrokes count, and a missing or blocked
 * AudioContext simply stays silent.
 */
export type BeepKind = 'allowed' | 'refused' | 'info';

type Tone = { frequency: number; start: number; length: number; type: OscillatorType };

const TONES: Record<BeepKind, Tone[]> = {
  allowed: [
    { frequency: 1046, start: 0, length: 0.09, type: 'sine' },
    { frequency: 1318, start: 0.12, length: 0.12, type: 'sine' },
  ],
  refused: [{ frequency: 196, start: 0, length: 0.6, type: 'square' }],
  info: [
    { frequency: 659, start: 0, length: 0.12, type: 'triangle' },
    { frequency: 659, start: 0.18, length: 0.12, type: 'triangle' },
    { frequency: 659, start: 0.36, length: 0.12, type: 'triangle' },
  ],
};

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (context) return context;
  const Ctor =
    typeof window === 'undefined'
      ? undefined
      : (window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext);
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    return null;
  }
  return context;
}

export function beep(kind: BeepKind): void {
  const ctx = audio();
  if (!ctx) return;
  try {
    if (ctx.state === 'suspended') void ctx.resume();
    const now = ctx.currentTime;
    for (const tone of TONES[kind]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = tone.type;
      osc.frequency.value = tone.frequency;
      gain.gain.setValueAtTime(0.0001, now + tone.start);
      gain.gain.exponentialRampToValueAtTime(0.3, now + tone.start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + tone.start + tone.length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + tone.start);
      osc.stop(now + tone.start + tone.length + 0.02);
    }
  } catch {
    // a sound is a courtesy; the screen shows the decision anyway
  }
}
