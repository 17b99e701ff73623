//! H.264 videos in MP4: [`Mp4Recorder`] encodes each frame with OpenH264 (Cisco's encoder,
//! BSD-2-Clause, built from source by the `openh264` crate) and muxes the samples into an MP4
//! with the `mp4` crate. H.264's constrained baseline profile in MP4 plays in every current
//! browser and player.
//!
//! Colour: frames are converted to YUV 4:2:0 with the BT.601 limited-range matrix, rounded to
//! nearest ([`bt601_420`]), and the stream says so (its VUI), so decoders turn it back into the
//! same RGB.

use super::gif::io;
use crate::scene::SceneError;
use openh264::encoder::{Encoder, EncoderConfig, FrameRate, FrameType, IntraFramePeriod, RateControlMode, VuiConfig};
use openh264::formats::YUVBuffer;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The MP4 track's clock: ticks a second (the usual 90 kHz, so common frame rates are whole).
const TIMESCALE: u32 = 90_000;

/// A video being written, frame by frame (into a temporary file beside the target, renamed over
/// it by [`Mp4Recorder::finish`]).
pub struct Mp4Recorder {
    path: PathBuf,
    /// Made with the first frame.
    encoder: Option<Encoder>,
    /// Created with the first frame, whose parameter sets (SPS, PPS) the track's header holds.
    writer: Option<::mp4::Mp4Writer<BufWriter<std::fs::File>>>,
    partial: crate::files::Partial,
    fps: f64,
    frames: u32,
    /// The frames' size as given.
    size: Option<(u32, u32)>,
    /// A frame copied with its last column and row repeated out to the encoded size.
    padded: Vec<u8>,
}

impl Mp4Recorder {
    /// Starts a video at `path` that plays at `fps` frames a second (1 to 60), with a key frame
    /// every 2 seconds (where a player can seek to).
    ///
    /// # Errors
    /// [`SceneError::Io`] when no file can be created in `path`'s folder or the encoder cannot
    /// start.
    pub fn new(path: &Path, fps: f64) -> Result<Self, SceneError> {
        let partial = crate::files::partial(path)?;
        Ok(Mp4Recorder {
            path: path.to_path_buf(),
            encoder: None,
            writer: None,
            partial,
            fps,
            frames: 0,
            size: None,
            padded: Vec::new(),
        })
    }

    /// Adds a frame (every frame must have the first one's size; at most
    /// [`super::MAX_VIDEO_SIDES`]). A side that is odd or under 16 pixels is padded to the next
    /// even size of at least 16 by repeating the last column or row: 4:2:0 colour needs even
    /// sides, and OpenH264 at least one 16-pixel macroblock.
    ///
    /// # Errors
    /// [`SceneError::Io`] when the frame is empty or too large, its size differs from the
    /// first's, or it cannot be encoded or written.
    pub fn add(&mut self, frame: &image::RgbaImage) -> Result<(), SceneError> {
        let size = frame.dimensions();
        match self.size {
            // The first frame sets the size, within what H.264 takes; the rest must match it.
            None => {
                super::Format::Mp4.check_frame_size(size).map_err(|e| io(&self.path, e))?;
                if size.0 == 0 || size.1 == 0 {
                    return Err(io(&self.path, format!("a frame of {size:?} pixels has nothing to encode")));
                }
                self.size = Some(size);
            }
            Some(first) if first != size => {
                return Err(io(&self.path, format!("a frame of {size:?} pixels after frames of {first:?}")));
            }
            Some(_) => {}
        }
        let (w, h) = (size.0 as usize, size.1 as usize);
        let (we, he) = (encoded_side(w), encoded_side(h));
        let rgba: &[u8] = if (we, he) == (w, h) {
            frame.as_raw()
        } else {
            self.padded.clear();
            let last_row = &frame.as_raw()[4 * w * (h - 1)..];
            for row in frame.as_raw().chunks_exact(4 * w).chain(std::iter::repeat_n(last_row, he - h)) {
                self.padded.extend_from_slice(row);
                for _ in w..we {
                    self.padded.extend_from_slice(&row[4 * (w - 1)..]);
                }
            }
            &self.padded
        };
        let yuv = YUVBuffer::from_vec(bt601_420(rgba, we, he), we, he);
        let encoder = match &mut self.encoder {
            Some(encoder) => encoder,
            None => self.encoder.insert(encoder(self.fps).map_err(|e| io(&self.path, e))?),
        };
        let stream = encoder.encode(&yuv).map_err(|e| io(&self.path, format!("H.264 encoder: {e}")))?;
        let is_sync = stream.frame_type() == FrameType::IDR;
        // Annex B (start codes) to MP4's form: the parameter sets go to the track's header, the
        // rest of the frame's NAL units into the sample, each behind its 4-byte length.
        let (mut sps, mut pps, mut sample) = (None, None, Vec::new());
        for layer in (0..stream.num_layers()).filter_map(|i| stream.layer(i)) {
            for nal in (0..layer.nal_count()).filter_map(|i| layer.nal_unit(i)) {
                let nal = strip_start_code(nal);
                match nal.first().map(|b| b & 0x1f) {
                    None => {}
                    Some(7) => sps = Some(nal.to_vec()),
                    Some(8) => pps = Some(nal.to_vec()),
                    Some(_) => {
                        sample.extend_from_slice(&(nal.len() as u32).to_be_bytes());
                        sample.extend_from_slice(nal);
                    }
                }
            }
        }
        if sample.is_empty() {
            return Err(io(&self.path, format!("H.264 encoder: frame {} came out empty", self.frames)));
        }
        let mp4_error = |e: ::mp4::Error| io(&self.path, format!("MP4: {e}"));
        if self.writer.is_none() {
            let (Some(seq_param_set), Some(pic_param_set)) = (sps, pps) else {
                return Err(io(&self.path, "H.264 encoder: the first frame has no parameter sets"));
            };
            let file = self.partial.file.try_clone().map_err(|e| io(&self.path, e))?;
            let config = ::mp4::Mp4Config {
                major_brand: "isom".parse().expect("four letters"),
                minor_version: 512,
                compatible_brands: ["isom", "iso2", "avc1", "mp41"].map(|b| b.parse().expect("four letters")).to_vec(),
                timescale: 1000,
            };
            let mut writer = ::mp4::Mp4Writer::write_start(BufWriter::new(file), &config).map_err(mp4_error)?;
            writer
                .add_track(&::mp4::TrackConfig {
                    track_type: ::mp4::TrackType::Video,
                    timescale: TIMESCALE,
                    language: "und".into(),
                    media_conf: ::mp4::MediaConfig::AvcConfig(::mp4::AvcConfig {
                        width: we as u16,
                        height: he as u16,
                        seq_param_set,
                        pic_param_set,
                    }),
                })
                .map_err(mp4_error)?;
            self.writer = Some(writer);
        }
        let start = self.ticks(self.frames);
        let sample = ::mp4::Mp4Sample {
            start_time: start,
            duration: (self.ticks(self.frames + 1) - start) as u32,
            rendering_offset: 0,
            is_sync,
            bytes: sample.into(),
        };
        self.writer.as_mut().expect("made above").write_sample(1, &sample).map_err(mp4_error)?;
        self.frames += 1;
        Ok(())
    }

    /// Where frame `n` starts on the track's clock (rounded there, so no drift accumulates).
    fn ticks(&self, n: u32) -> u64 {
        (n as f64 * TIMESCALE as f64 / self.fps).round() as u64
    }

    /// The frame rate it plays at (exactly the one asked for: a 90 kHz clock).
    pub fn fps(&self) -> f64 {
        self.fps
    }

    /// Frames added so far.
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// Where it will be written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the MP4's index (its `moov` box) and renames the file over the target. Returns the
    /// frames written.
    ///
    /// # Errors
    /// [`SceneError::Io`] when no frame was added (an empty video is not written) or the file
    /// cannot be finished or renamed; the target is left as it was.
    pub fn finish(mut self) -> Result<u32, SceneError> {
        let Some(mut writer) = self.writer.take() else {
            return Err(io(&self.path, "no frame was recorded, so no video was written"));
        };
        writer.write_end().map_err(|e| io(&self.path, format!("MP4: {e}")))?;
        writer.into_writer().flush().map_err(|e| io(&self.path, e))?;
        crate::files::commit(self.partial, &self.path)?;
        Ok(self.frames)
    }
}

/// OpenH264 for `fps` frames a second: rate control off, so every frame is encoded (none
/// skipped, which would leave the timeline short) at OpenH264's fixed quantiser, the same
/// quality in calm and busy frames; a key frame every 2 seconds (where a player can seek to).
fn encoder(fps: f64) -> Result<Encoder, String> {
    let config = EncoderConfig::new()
        .max_frame_rate(FrameRate::from_hz(fps as f32))
        .skip_frames(false)
        .rate_control_mode(RateControlMode::Off)
        .intra_frame_period(IntraFramePeriod::from_num_frames((2.0 * fps).round().max(1.0) as u32))
        .vui(VuiConfig::bt601());
    Encoder::with_api_config(openh264::OpenH264API::from_source(), config).map_err(|e| format!("H.264 encoder: {e}"))
}

/// RGBA pixels (`w` x `h`, rows top first, both sides even) as planar YUV 4:2:0 (the Y plane,
/// then U, then V, each row top first), with the BT.601 limited-range matrix (ITU-R BT.601-7,
/// section 2.5: Y in 16..=235, U and V in 16..=240) rounded to nearest; U and V from each 2x2
/// block's mean colour. (`openh264`'s own converter truncates, which darkens every channel by up
/// to 2 levels after decoding.)
fn bt601_420(rgba: &[u8], w: usize, h: usize) -> Vec<u8> {
    let mut yuv = vec![0u8; w * h * 3 / 2];
    let (luma, chroma) = yuv.split_at_mut(w * h);
    let (u, v) = chroma.split_at_mut(w * h / 4);
    let px = |x: usize, y: usize| {
        let p = &rgba[4 * (y * w + x)..][..3];
        [p[0] as f32, p[1] as f32, p[2] as f32]
    };
    for y in 0..h {
        for x in 0..w {
            let [r, g, b] = px(x, y);
            luma[y * w + x] = (16.0 + (65.481 * r + 128.553 * g + 24.966 * b) / 255.0).round() as u8;
        }
    }
    for y in 0..h / 2 {
        for x in 0..w / 2 {
            let q = [px(2 * x, 2 * y), px(2 * x + 1, 2 * y), px(2 * x, 2 * y + 1), px(2 * x + 1, 2 * y + 1)];
            let [r, g, b] = [0, 1, 2].map(|c| q.iter().map(|p| p[c]).sum::<f32>() / 4.0);
            u[y * (w / 2) + x] = (128.0 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255.0).round() as u8;
            v[y * (w / 2) + x] = (128.0 + (112.0 * r - 93.786 * g - 18.214 * b) / 255.0).round() as u8;
        }
    }
    yuv
}

/// The side a frame's side of `n` pixels is encoded at: even, and at least 16.
fn encoded_side(n: usize) -> usize {
    n.next_multiple_of(2).max(16)
}

/// A NAL unit without its Annex B start code (`00 00 01` or `00 00 00 01`).
fn strip_start_code(nal: &[u8]) -> &[u8] {
    let zeros = nal.iter().take_while(|&&b| b == 0).count();
    if zeros >= 2 && nal.get(zeros) == Some(&1) { &nal[zeros + 1..] } else { nal }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BT.601's limited-range values of black, white and the primaries (ITU-R BT.601-7 with
    /// 8-bit quantisation: red is Y 81, Cb 90, Cr 240, as tables of the standard list).
    #[test]
    fn colours_convert_as_bt601_says() {
        let cases = [
            ([0, 0, 0], [16, 128, 128]),
            ([255, 255, 255], [235, 128, 128]),
            ([255, 0, 0], [81, 90, 240]),
            ([0, 255, 0], [145, 54, 34]),
            ([0, 0, 255], [41, 240, 110]),
        ];
        for (rgb, want) in cases {
            let rgba: Vec<u8> = std::iter::repeat_n([rgb[0], rgb[1], rgb[2], 255], 4).flatten().collect();
            let yuv = bt601_420(&rgba, 2, 2);
            assert_eq!([yuv[0], yuv[4], yuv[5]], want, "{rgb:?}");
        }
    }

    #[test]
    fn start_codes_are_stripped() {
        assert_eq!(strip_start_code(&[0, 0, 0, 1, 0x67, 5]), &[0x67, 5]);
        assert_eq!(strip_start_code(&[0, 0, 1, 0x68]), &[0x68]);
        assert_eq!(strip_start_code(&[0x65, 0, 0, 1]), &[0x65, 0, 0, 1]);
    }

    /// A video decodes back (with OpenH264's decoder, from the MP4 the `mp4` crate reads) to its
    /// frame count, its size made even, and each frame's colour within the codec's error; one
    /// never finished leaves the target as it was. (CI also decodes `eddy run --video`'s file
    /// with FFmpeg: .ci/check_video.py.)
    #[test]
    fn frames_round_trip_and_an_abandoned_video_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.mp4");
        let mut video = Mp4Recorder::new(&path, 30.0).unwrap();
        let colours = [[200u8, 30, 30, 255], [30, 200, 30, 255], [30, 30, 200, 255]];
        for c in colours {
            video.add(&image::RgbaImage::from_pixel(33, 17, image::Rgba(c))).unwrap();
        }
        assert!(video.add(&image::RgbaImage::new(32, 16)).is_err(), "a frame of another size");
        let mut empty = Mp4Recorder::new(&dir.path().join("empty.mp4"), 30.0).unwrap();
        assert!(empty.add(&image::RgbaImage::new(0, 4)).is_err(), "an empty frame is refused, not a panic");
        drop(empty);
        assert_eq!(video.finish().unwrap(), 3);

        let bytes = std::fs::read(&path).unwrap();
        let size = bytes.len() as u64;
        let mut reader = ::mp4::Mp4Reader::read_header(std::io::Cursor::new(bytes), size).unwrap();
        let (sps, pps) = {
            let track = reader.tracks().get(&1).unwrap();
            assert_eq!((track.width(), track.height()), (34, 18), "odd sides are made even");
            assert_eq!(track.sample_count(), 3);
            assert_eq!(track.timescale(), TIMESCALE);
            let avcc = &track.trak.mdia.minf.stbl.stsd.avc1.as_ref().unwrap().avcc;
            (avcc.sequence_parameter_sets[0].bytes.clone(), avcc.picture_parameter_sets[0].bytes.clone())
        };
        let mut decoder = openh264::decoder::Decoder::new().unwrap();
        let mut annex_b = Vec::new();
        for nal in [&sps, &pps] {
            annex_b.extend_from_slice(&[0, 0, 0, 1]);
            annex_b.extend_from_slice(nal);
        }
        for (i, c) in colours.iter().enumerate() {
            let sample = reader.read_sample(1, i as u32 + 1).unwrap().unwrap();
            assert_eq!(sample.start_time, i as u64 * 3000, "30 frames/s on a 90 kHz clock");
            assert_eq!(sample.is_sync, i == 0);
            let mut rest = &sample.bytes[..];
            while rest.len() >= 4 {
                let n = u32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
                annex_b.extend_from_slice(&[0, 0, 0, 1]);
                annex_b.extend_from_slice(&rest[4..4 + n]);
                rest = &rest[4 + n..];
            }
            let yuv = decoder.decode(&annex_b).unwrap().expect("a picture");
            annex_b.clear();
            let mut rgb = vec![0u8; 34 * 18 * 3];
            yuv.write_rgb8(&mut rgb);
            let centre = &rgb[(9 * 34 + 17) * 3..][..3];
            for k in 0..3 {
                assert!(centre[k].abs_diff(c[k]) <= 6, "frame {i}: {centre:?} for {c:?}");
            }
        }

        std::fs::write(&path, b"keep").unwrap();
        let mut video = Mp4Recorder::new(&path, 30.0).unwrap();
        video.add(&image::RgbaImage::new(2, 2)).unwrap(); // encoded at 16x16
        drop(video);
        assert_eq!(std::fs::read(&path).unwrap(), b"keep");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left");
    }
}
