//! Recordings of a run: animated GIFs (`GifRecorder`, feature `gif`) and H.264 videos in MP4
//! (`Mp4Recorder`, feature `video`), chosen by the path's extension through `Recorder`. Each
//! streams its frames into a temporary file beside the target and renames it over the target
//! when finished, so an interrupted recording never leaves a broken file at the path (nor
//! destroys one that was there). Used by `eddy run --gif/--video`, scripts' `gif` and `video`
//! actions and the viewer's recording keys (G and M). [`Format`], which checks a recording's
//! path, frame rate and size, is here in every build; the recorders need the `gif` feature.

#[cfg(feature = "gif")]
mod gif;
#[cfg(feature = "video")]
mod mp4;

#[cfg(feature = "gif")]
pub use gif::GifRecorder;
#[cfg(feature = "video")]
pub use mp4::Mp4Recorder;

#[cfg(feature = "gif")]
use crate::scene::SceneError;
use std::path::Path;

/// Most frames one GIF takes (a GIF holds every frame whole, so it grows quickly); the viewer
/// stops recording there and says so.
pub const MAX_FRAMES: u32 = 1000;

/// Most frames one video takes: an hour at 25 frames/s.
pub const MAX_VIDEO_FRAMES: u32 = 90_000;

/// The frame rate a recording plays at unless told otherwise (a GIF's 4 hundredths of a second).
pub const DEFAULT_FPS: f64 = 25.0;

/// The largest frame sides a video takes, either way round: OpenH264 encodes up to H.264 level
/// 5.2, 3840x2160 (or 2160x3840).
pub const MAX_VIDEO_SIDES: (u32, u32) = (3840, 2160);

/// A recording's file format, told by its path's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Animated GIF (`.gif`): 256 colours a frame, frame delays in whole hundredths of a second.
    Gif,
    /// H.264 (constrained baseline profile) in MP4 (`.mp4`), which current browsers play.
    Mp4,
}

impl Format {
    /// The format of `path` by its extension (any letter case).
    ///
    /// # Errors
    /// A one-line message when the extension is neither `.gif` nor `.mp4`.
    pub fn of(path: &Path) -> Result<Format, String> {
        if crate::files::has_extension(path, "gif") {
            Ok(Format::Gif)
        } else if crate::files::has_extension(path, "mp4") {
            Ok(Format::Mp4)
        } else {
            Err(format!("{}: a recording is a .gif or an .mp4 (H.264 video)", path.display()))
        }
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Gif => "gif",
            Format::Mp4 => "mp4",
        }
    }

    /// Most frames one recording of this format takes.
    pub fn max_frames(self) -> u32 {
        match self {
            Format::Gif => MAX_FRAMES,
            Format::Mp4 => MAX_VIDEO_FRAMES,
        }
    }

    /// The frame rates this format plays, inclusive. GIF: 1 to 50 (a GIF's delay is in whole
    /// hundredths of a second, and browsers show a delay under 2 as 10). MP4: 1 to 60.
    pub fn fps_range(self) -> (f64, f64) {
        match self {
            Format::Gif => (1.0, 50.0),
            Format::Mp4 => (1.0, 60.0),
        }
    }

    /// Checks a frame rate for this format.
    ///
    /// # Errors
    /// A one-line message naming the range when `fps` is outside it or not finite.
    pub fn check_fps(self, fps: f64) -> Result<(), String> {
        let (lo, hi) = self.fps_range();
        if fps.is_finite() && (lo..=hi).contains(&fps) {
            return Ok(());
        }
        let why = match self {
            Format::Gif => {
                ": a GIF's frame delay is whole hundredths of a second, and browsers show delays under 2 (50 frames/s) at 10 frames/s; record a video (.mp4) for up to 60"
            }
            Format::Mp4 => "",
        };
        Err(format!("a {} plays at {lo} to {hi} frames/s, not {fps}{why}", self.name()))
    }

    /// Checks a frame size (pixels) for this format.
    ///
    /// # Errors
    /// A one-line message when a video's frame is larger than [`MAX_VIDEO_SIDES`] either way
    /// round (a GIF takes up to 65535 a side, more than any grid a frame is drawn from).
    pub fn check_frame_size(self, (width, height): (u32, u32)) -> Result<(), String> {
        let (long, short) = MAX_VIDEO_SIDES;
        if self == Format::Mp4 && (width.max(height) > long || width.min(height) > short) {
            return Err(format!(
                "a video's frames are at most {long}x{short} (or {short}x{long}) pixels (H.264 level 5.2, what OpenH264 encodes), and these would be {width}x{height}: draw fewer pixels per cell, or a smaller grid"
            ));
        }
        Ok(())
    }

    /// Checks everything a recording at `path` needs before the first frame: its format, the
    /// frame rate, the frame size, and that this build writes it.
    ///
    /// # Errors
    /// A one-line message saying what is wrong.
    pub fn check(path: &Path, fps: f64, size: (u32, u32)) -> Result<Format, String> {
        let format = Format::of(path)?;
        if format == Format::Mp4 && !cfg!(feature = "video") {
            return Err(format!(
                "{}: this eddy was built without video (the `video` feature): record a .gif, or build with --features video",
                path.display()
            ));
        }
        format.check_fps(fps)?;
        format.check_frame_size(size)?;
        Ok(format)
    }

    fn name(self) -> &'static str {
        match self {
            Format::Gif => "GIF",
            Format::Mp4 => "video",
        }
    }
}

/// A GIF's frame delay for `fps` frames a second: whole hundredths of a second, at least 2 (the
/// shortest browsers honour: they show 0 and 1 as 10).
#[cfg(feature = "gif")]
pub(crate) fn gif_delay_cs(fps: f64) -> u32 {
    (100.0 / fps).round().clamp(2.0, 65535.0) as u32
}

/// A recording of either [`Format`], picked by the path's extension.
#[cfg(feature = "gif")]
pub enum Recorder {
    /// An animated GIF.
    Gif(GifRecorder),
    /// An H.264 video in MP4 (boxed: its encoder state is large beside a GIF's).
    #[cfg(feature = "video")]
    Mp4(Box<Mp4Recorder>),
}

#[cfg(feature = "gif")]
impl Recorder {
    /// Starts a recording at `path` (`.gif`, or `.mp4` with the `video` feature) that plays at
    /// `fps` frames a second (see [`Recorder::fps`]).
    ///
    /// # Errors
    /// [`SceneError::Io`] naming the path when its extension is neither, `fps` is outside
    /// [`Format::fps_range`], or no file can be created in its folder.
    pub fn new(path: &Path, fps: f64) -> Result<Recorder, SceneError> {
        let format = Format::of(path).map_err(|e| gif::io(path, e))?;
        format.check_fps(fps).map_err(|e| gif::io(path, e))?;
        match format {
            Format::Gif => Ok(Recorder::Gif(GifRecorder::new(path, fps)?)),
            #[cfg(feature = "video")]
            Format::Mp4 => Ok(Recorder::Mp4(Box::new(Mp4Recorder::new(path, fps)?))),
            #[cfg(not(feature = "video"))]
            Format::Mp4 => Err(gif::io(path, "this eddy was built without video (the `video` feature)")),
        }
    }

    /// The recording's format.
    pub fn format(&self) -> Format {
        match self {
            Recorder::Gif(_) => Format::Gif,
            #[cfg(feature = "video")]
            Recorder::Mp4(_) => Format::Mp4,
        }
    }

    /// Adds a frame (every frame must have the first one's size).
    ///
    /// # Errors
    /// [`SceneError::Io`] when the frame cannot be encoded or written, or its size differs from
    /// the first's.
    pub fn add(&mut self, frame: image::RgbaImage) -> Result<(), SceneError> {
        match self {
            Recorder::Gif(r) => r.add(frame),
            #[cfg(feature = "video")]
            Recorder::Mp4(r) => r.add(&frame),
        }
    }

    /// The frame rate it plays at: a GIF's delay is rounded to whole hundredths of a second
    /// (30 frames/s asked for is a delay of 3, 33.3 frames/s); a video's is the one asked for.
    pub fn fps(&self) -> f64 {
        match self {
            Recorder::Gif(r) => r.fps(),
            #[cfg(feature = "video")]
            Recorder::Mp4(r) => r.fps(),
        }
    }

    /// Frames added so far.
    pub fn frames(&self) -> u32 {
        match self {
            Recorder::Gif(r) => r.frames(),
            #[cfg(feature = "video")]
            Recorder::Mp4(r) => r.frames(),
        }
    }

    /// Where it will be written.
    pub fn path(&self) -> &Path {
        match self {
            Recorder::Gif(r) => r.path(),
            #[cfg(feature = "video")]
            Recorder::Mp4(r) => r.path(),
        }
    }

    /// Finishes the file and renames it over the target. Returns the frames written.
    ///
    /// # Errors
    /// [`SceneError::Io`] when no frame was added (an empty recording is not written) or the
    /// file cannot be finished or renamed; the target is left as it was.
    pub fn finish(self) -> Result<u32, SceneError> {
        match self {
            Recorder::Gif(r) => r.finish(),
            #[cfg(feature = "video")]
            Recorder::Mp4(r) => r.finish(),
        }
    }
}
