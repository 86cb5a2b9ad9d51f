import CFFmpeg
import Glibc
import Synchronization

/// Reads a media container or stream with libavformat (a file, `file:`, `rtsp://`, `http(s)://`,
/// `srt://`, `udp://`, or bytes in memory, which may not open any other file or URL) and hands over, one chunk at a time and on one media
/// timeline (seconds from the start of the input, from the packets' timestamps):
/// - audio of the best audio stream as mono Float32 PCM, resampled by libswresample to
///   ``MediaReaderOptions/audioSampleRate`` (or kept at the stream's rate);
/// - the luma plane of the best video stream's frames at the analysis times
///   (``MediaReaderOptions/analysisFPS``), in the full range 0...255 (limited-range video is
///   expanded as libswscale's `gray` conversion does), converted by libswscale only when the
///   decoder's pixel format does not carry 8-bit luma as its first plane.
///
/// Reading is pull-based (``nextChunk()``): one packet is demuxed and decoded at a time, so memory
/// stays bounded however long the input runs. Every failure is a ``MediaReadError`` naming the
/// input; network reads time out after ``MediaReaderOptions/readTimeout``. Not thread-safe, except
/// ``cancel()``, which another thread may call to end a blocking read.
public final class MediaContainerReader: MediaChunkSource {
    /// The input as named in messages (URL password removed).
    public let inputName: String
    /// The options the reader was opened with.
    public let options: MediaReaderOptions
    /// The decoded audio stream, if any.
    public private(set) var audio: MediaAudioStreamInfo?
    /// The decoded video stream, if any.
    public let video: MediaVideoStreamInfo?
    /// The container's duration in seconds, when it states one (files; not live streams).
    public let duration: Double?
    /// libavformat's name of the container format ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "rtsp", ...).
    public let formatName: String
    /// Streams skipped because they cannot be decoded while another stream can.
    public let warnings: [MediaReaderWarning]
    /// Packets whose decoding failed and were skipped (damaged or lost packets of a stream).
    public private(set) var skippedPacketCount = 0

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var customIO: UnsafeMutablePointer<AVIOContext>?
    private var memoryInput: Unmanaged<MemoryInput>?
    private let interrupt = InterruptState()
    private let interruptOpaque: Unmanaged<InterruptState>
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var audioDecoder: StreamDecoder?
    private var videoDecoder: StreamDecoder?
    private var resampler: OpaquePointer?
    private var resamplerInput: (format: Int32, rate: Int32, channels: Int32)?
    private var scaler: OpaquePointer?
    private let origin: Double
    private var selector: AnalysisFrameSelector
    private var videoFramesHanded = 0
    private var audioAnchorTime: Double?
    private var audioAnchorSample = 0
    private var audioSamplesHanded = 0
    private var audioExpectedInputEnd: Double?
    private let durationIsFromHeaders: Bool
    private var pending: [MediaChunk] = []
    private var pendingHead = 0
    private var finished = false

    /// Consecutive packets of one stream that may fail to decode before reading fails.
    public static let maximumConsecutiveDecodeFailures = 50
    /// A jump in the audio timestamps larger than this (seconds) starts the samples anew at the
    /// new timestamp instead of counting on from the last sample.
    public static let audioResyncThreshold = 0.25

    /// Opens `input` (a path or URL) and finds its best audio and video streams.
    public convenience init(input: String, options: MediaReaderOptions = MediaReaderOptions()) throws(MediaReadError) {
        try self.init(input: input, memory: nil, name: MediaInputName.redacted(input), options: options)
    }

    /// Reads a container held in memory (`name` is used in messages), through a custom AVIOContext.
    public convenience init(bytes: [UInt8], name: String, options: MediaReaderOptions = MediaReaderOptions()) throws(MediaReadError) {
        try self.init(input: "", memory: MemoryInput(bytes), name: name, options: options)
    }

    private init(input: String, memory: MemoryInput?, name: String, options: MediaReaderOptions) throws(MediaReadError) {
        LibavSetup.once()
        inputName = name
        self.options = options
        interruptOpaque = Unmanaged.passRetained(interrupt)
        selector = AnalysisFrameSelector(fps: options.analysisFPS)
        if let problem = options.problem {
            interruptOpaque.release()
            throw MediaReadError(.invalidOptions, input: name, reason: problem)
        }
        var opened: OpenedInput
        do {
            opened = try Self.open(
                input: input, memory: memory, name: name, options: options, interrupt: interrupt, opaque: interruptOpaque)
        } catch {
            interruptOpaque.release()
            throw error
        }
        format = opened.format
        customIO = opened.customIO
        memoryInput = opened.memoryInput
        audio = opened.audioInfo
        video = opened.videoInfo
        audioDecoder = opened.audioDecoder
        videoDecoder = opened.videoDecoder
        warnings = opened.warnings
        duration = opened.duration
        formatName = opened.formatName
        origin = opened.origin
        durationIsFromHeaders = opened.durationIsFromHeaders
        packet = av_packet_alloc()
        frame = av_frame_alloc()
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        audioDecoder?.free()
        videoDecoder?.free()
        swr_free(&resampler)
        sws_freeContext(scaler)
        avformat_close_input(&format)
        if let io = customIO {
            var buffer: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(io.pointee.buffer)
            av_freep(&buffer)
            var context: UnsafeMutablePointer<AVIOContext>? = io
            avio_context_free(&context)
        }
        memoryInput?.release()
        interruptOpaque.release()
    }

    /// Ends a blocking open or read from another thread: the read in progress (or the next one)
    /// fails with ``MediaReadError/Kind/cancelled``.
    public func cancel() { interrupt.cancelled.store(true, ordering: .relaxed) }

    /// A handle that cancels this reader's blocking I/O from another thread.
    public var cancellation: MediaReadCancellation { MediaReadCancellation(state: interrupt) }

    /// Hands the audio over at `rate` instead of the rate the reader was opened with, so that a
    /// caller can choose it from the stream's own rate (``audio``'s `sourceSampleRate`).
    /// - Precondition: no chunk has been read yet, and `rate` is positive.
    public func resampleAudio(to rate: Int) {
        precondition(rate > 0 && resampler == nil && pending.isEmpty && !finished, "resampleAudio(to:) after reading began")
        audio?.sampleRate = rate
    }

    /// The next chunk of audio or video in demux order, or `nil` at the end of the input. Audio
    /// chunks are contiguous; video frames come only at the analysis times.
    public func nextChunk() throws(MediaReadError) -> MediaChunk? {
        while true {
            if pendingHead < pending.count {
                let chunk = pending[pendingHead]
                pendingHead += 1
                if pendingHead == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingHead = 0
                }
                return chunk
            }
            if finished { return nil }
            try readPacket()
        }
    }

    // MARK: - Opening

    private struct OpenedInput {
        var format: UnsafeMutablePointer<AVFormatContext>
        var customIO: UnsafeMutablePointer<AVIOContext>?
        var memoryInput: Unmanaged<MemoryInput>?
        var audioInfo: MediaAudioStreamInfo?
        var videoInfo: MediaVideoStreamInfo?
        var audioDecoder: StreamDecoder?
        var videoDecoder: StreamDecoder?
        var warnings: [MediaReaderWarning]
        var duration: Double?
        var formatName: String
        var origin: Double
        var durationIsFromHeaders: Bool
    }

    private static func open(
        input: String, memory: MemoryInput?, name: String, options: MediaReaderOptions, interrupt: InterruptState,
        opaque: Unmanaged<InterruptState>
    ) throws(MediaReadError) -> OpenedInput {
        guard var format = avformat_alloc_context() else {
            throw MediaReadError(.unreadable, input: name, reason: "cannot allocate a format context")
        }
        format.pointee.interrupt_callback = AVIOInterruptCB(callback: interruptCallback, opaque: opaque.toOpaque())
        var customIO: UnsafeMutablePointer<AVIOContext>?
        var retainedMemory: Unmanaged<MemoryInput>?
        if let memory {
            let retained = Unmanaged.passRetained(memory)
            let bufferSize: Int32 = 32_768
            guard let buffer = av_malloc(Int(bufferSize))?.assumingMemoryBound(to: UInt8.self),
                let io = avio_alloc_context(buffer, bufferSize, 0, retained.toOpaque(), memoryRead, nil, memorySeek)
            else {
                retained.release()
                avformat_free_context(format)
                throw MediaReadError(.unreadable, input: name, reason: "cannot allocate an I/O context")
            }
            customIO = io
            retainedMemory = retained
            format.pointee.pb = io
            format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        func releaseIO() {
            if let io = customIO {
                var buffer: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(io.pointee.buffer)
                av_freep(&buffer)
                var context: UnsafeMutablePointer<AVIOContext>? = io
                avio_context_free(&context)
            }
            retainedMemory?.release()
        }

        var dictionary: OpaquePointer?
        let isNetwork = memory == nil && MediaInputName.isNetworkURL(input)
        if isNetwork {
            let microseconds = String(Int64(options.readTimeout * 1_000_000))
            av_dict_set(&dictionary, "rw_timeout", microseconds, 0)
            if input.lowercased().hasPrefix("rtsp") { av_dict_set(&dictionary, "timeout", microseconds, 0) }
        }
        for (key, value) in options.formatOptions.sorted(by: { $0.key < $1.key }) { av_dict_set(&dictionary, key, value, 0) }
        // Bytes in memory may not make libavformat open anything else (a playlist naming files or URLs).
        if memory != nil { av_dict_set(&dictionary, "protocol_whitelist", "none", 0) }
        interrupt.arm(seconds: options.openTimeout)
        var formatOptional: UnsafeMutablePointer<AVFormatContext>? = format
        var status = avformat_open_input(&formatOptional, memory == nil ? input : "", nil, &dictionary)
        av_dict_free(&dictionary)
        guard status >= 0, let openedFormat = formatOptional else {
            releaseIO()
            throw interrupt.error(status, input: name, doing: "cannot open", isNetwork: isNetwork)
        }
        format = openedFormat
        func closeAndThrow(_ error: MediaReadError) -> MediaReadError {
            var f: UnsafeMutablePointer<AVFormatContext>? = format
            avformat_close_input(&f)
            releaseIO()
            return error
        }
        // libavformat warns "misdetection possible" at a probe score of AVPROBE_SCORE_RETRY (a quarter of the
        // maximum) or less: random bytes pass as raw H.263 (25) or an LRC subtitle file (5). Real containers and
        // elementary streams score 26-100 (an MP3 of a few frames, under about 0.1 s, scores 25); the format is never
        // forced here, so the score is always the probe's.
        let probeScore = format.pointee.probe_score
        if probeScore <= AVPROBE_SCORE_MAX / 4 {
            let guess = format.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
            throw closeAndThrow(
                MediaReadError(
                    .invalidData, input: name,
                    reason: "not a media file libavformat recognises (it guesses \(guess) with a probe score of only \(probeScore) of 100)")
            )
        }
        status = avformat_find_stream_info(format, nil)
        if status < 0 {
            throw closeAndThrow(interrupt.error(status, input: name, doing: "cannot read the stream parameters", isNetwork: isNetwork))
        }
        interrupt.disarm()

        var warnings: [MediaReaderWarning] = []
        var audioDecoder: StreamDecoder?
        var videoDecoder: StreamDecoder?
        var undecodable: [String] = []
        func decoder(for type: AVMediaType, label: String) throws(MediaReadError) -> StreamDecoder? {
            let index = av_find_best_stream(format, type, -1, -1, nil, 0)
            guard index >= 0, let stream = format.pointee.streams[Int(index)] else { return nil }
            let codecID = stream.pointee.codecpar.pointee.codec_id
            let codecName = String(cString: avcodec_get_name(codecID))
            guard let codec = avcodec_find_decoder(codecID) else {
                undecodable.append("\(label) stream \(index): no decoder for codec \(codecName)")
                return nil
            }
            do {
                return try StreamDecoder(stream: stream, index: index, codec: codec, codecName: codecName, threads: options.decoderThreads)
            } catch let reason {
                undecodable.append("\(label) stream \(index) (\(codecName)): \(reason.text)")
                return nil
            }
        }
        do {
            if options.readsAudio { audioDecoder = try decoder(for: AVMEDIA_TYPE_AUDIO, label: "audio") }
            if options.readsVideo { videoDecoder = try decoder(for: AVMEDIA_TYPE_VIDEO, label: "video") }
        } catch {
            audioDecoder?.free()
            videoDecoder?.free()
            throw closeAndThrow(error)
        }
        if audioDecoder == nil && videoDecoder == nil {
            let wanted = [options.readsAudio ? "audio" : nil, options.readsVideo ? "video" : nil].compactMap { $0 }.joined(
                separator: " or ")
            if undecodable.isEmpty { throw closeAndThrow(MediaReadError(.noStreams, input: name, reason: "no \(wanted) stream")) }
            throw closeAndThrow(MediaReadError(.unsupportedCodec, input: name, reason: undecodable.joined(separator: "; ")))
        }
        warnings = undecodable.map { MediaReaderWarning(input: name, message: $0 + "; stream skipped") }
        // Demux only the decoded streams.
        for i in 0..<Int(format.pointee.nb_streams) {
            guard let stream = format.pointee.streams[i] else { continue }
            if Int32(i) != audioDecoder?.index && Int32(i) != videoDecoder?.index { stream.pointee.discard = AVDISCARD_ALL }
        }

        var audioInfo: MediaAudioStreamInfo?
        if let decoder = audioDecoder {
            let parameters = decoder.stream.pointee.codecpar.pointee
            let rate = Int(parameters.sample_rate)
            audioInfo = MediaAudioStreamInfo(
                streamIndex: Int(decoder.index), codecName: decoder.codecName, sourceSampleRate: rate,
                sourceChannels: Int(parameters.ch_layout.nb_channels), sampleRate: options.audioSampleRate ?? rate)
            if rate <= 0 && options.audioSampleRate == nil {
                decoder.free()
                videoDecoder?.free()
                throw closeAndThrow(
                    MediaReadError(.decodeFailed, input: name, reason: "audio stream \(decoder.index) states no sample rate"))
            }
        }
        var videoInfo: MediaVideoStreamInfo?
        if let decoder = videoDecoder {
            let parameters = decoder.stream.pointee.codecpar.pointee
            let rate = decoder.stream.pointee.avg_frame_rate
            let frameRate: Double? = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : nil
            videoInfo = MediaVideoStreamInfo(
                streamIndex: Int(decoder.index), codecName: decoder.codecName, width: Int(parameters.width), height: Int(parameters.height),
                frameRate: frameRate)
            if options.skipsNonReferenceFrames, let fps = options.analysisFPS, let frameRate, frameRate >= 2 * fps {
                decoder.context.pointee.skip_frame = AVDISCARD_NONREF
            }
        }
        let noTimestamp = vigil_av_nopts_value()
        let startTime = format.pointee.start_time
        let duration = format.pointee.duration
        return OpenedInput(
            format: format, customIO: customIO, memoryInput: retainedMemory, audioInfo: audioInfo, videoInfo: videoInfo,
            audioDecoder: audioDecoder, videoDecoder: videoDecoder, warnings: warnings,
            duration: duration != noTimestamp && duration > 0 ? Double(duration) / Double(AV_TIME_BASE) : nil,
            formatName: format.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
            origin: startTime != noTimestamp ? Double(startTime) / Double(AV_TIME_BASE) : 0,
            durationIsFromHeaders: format.pointee.duration_estimation_method == AVFMT_DURATION_FROM_STREAM
                && (format.pointee.pb.map { $0.pointee.seekable != 0 } ?? false))
    }

    // MARK: - Reading

    private func readPacket() throws(MediaReadError) {
        guard let format, let packet else { finished = true; return }
        interrupt.arm(seconds: options.readTimeout)
        let status = av_read_frame(format, packet)
        interrupt.disarm()
        if status == vigil_averror_eof() {
            try drainDecoders()
            finished = true
            try checkComplete()
            return
        }
        if status < 0 { throw interrupt.error(status, input: inputName, doing: "cannot read a packet") }
        defer { av_packet_unref(packet) }
        noteEnd(of: packet, in: format)
        if let decoder = audioDecoder, packet.pointee.stream_index == decoder.index {
            try decode(packet, with: decoder, label: "audio", handle: handleAudioFrame)
        } else if let decoder = videoDecoder, packet.pointee.stream_index == decoder.index {
            try decode(packet, with: decoder, label: "video", handle: handleVideoFrame)
        }
    }

    /// Keeps the latest end (timestamp + duration) of each decoded stream's packets.
    private func noteEnd(of packet: UnsafeMutablePointer<AVPacket>, in format: UnsafeMutablePointer<AVFormatContext>) {
        let index = packet.pointee.stream_index
        guard let decoder = index == audioDecoder?.index ? audioDecoder : index == videoDecoder?.index ? videoDecoder : nil else { return }
        let pts = packet.pointee.pts
        let base = decoder.stream.pointee.time_base
        guard pts != vigil_av_nopts_value(), base.den > 0 else { return }
        let end = Double(pts + max(0, packet.pointee.duration)) * Double(base.num) / Double(base.den) - origin
        if end.isFinite && end > decoder.end { decoder.end = end }
    }

    /// A file whose index states each stream's duration, and one of whose decoded streams stops
    /// well before it, was cut short (a truncated MP4 whose index is at the front).
    private func checkComplete() throws(MediaReadError) {
        guard durationIsFromHeaders else { return }
        for (decoder, label) in [(audioDecoder, "audio"), (videoDecoder, "video")] {
            guard let decoder else { continue }
            let stream = decoder.stream.pointee
            let noTimestamp = vigil_av_nopts_value()
            guard stream.duration != noTimestamp, stream.duration > 0, stream.time_base.den > 0 else { continue }
            let start = stream.start_time != noTimestamp ? stream.start_time : 0
            let declared = Double(start + stream.duration) * Double(stream.time_base.num) / Double(stream.time_base.den) - origin
            let end = decoder.end.isFinite ? decoder.end : 0
            if declared - end > max(0.25, 0.02 * declared) {
                throw MediaReadError(
                    .readFailed, input: inputName,
                    reason:
                        "the \(label) stream ends at \(Self.seconds(end)) s of the \(Self.seconds(declared)) s the file's index states: it is truncated"
                )
            }
        }
    }

    private static func seconds(_ x: Double) -> String {
        let tenths = (x * 10).rounded()
        return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10)"
    }

    private func drainDecoders() throws(MediaReadError) {
        if let decoder = audioDecoder { try decode(nil, with: decoder, label: "audio", handle: handleAudioFrame) }
        if let decoder = videoDecoder { try decode(nil, with: decoder, label: "video", handle: handleVideoFrame) }
        if resampler != nil { try flushResampler() }
    }

    private func decode(
        _ packet: UnsafeMutablePointer<AVPacket>?, with decoder: StreamDecoder, label: String,
        handle: (UnsafeMutablePointer<AVFrame>) throws(MediaReadError) -> Void
    ) throws(MediaReadError) {
        guard let frame else { return }
        let again = vigil_averror_eagain(), end = vigil_averror_eof()
        let sent = avcodec_send_packet(decoder.context, packet)
        if sent < 0 && sent != again && sent != end {
            try noteDecodeFailure(decoder, label: label, status: sent)
            return
        }
        while true {
            let received = avcodec_receive_frame(decoder.context, frame)
            if received == again || received == end { return }
            if received < 0 {
                try noteDecodeFailure(decoder, label: label, status: received)
                return
            }
            decoder.consecutiveFailures = 0
            defer { av_frame_unref(frame) }
            try handle(frame)
        }
    }

    private func noteDecodeFailure(_ decoder: StreamDecoder, label: String, status: Int32) throws(MediaReadError) {
        skippedPacketCount += 1
        decoder.consecutiveFailures += 1
        if decoder.consecutiveFailures > Self.maximumConsecutiveDecodeFailures {
            throw MediaReadError(
                .decodeFailed, input: inputName,
                reason:
                    "\(label) stream \(decoder.index): \(decoder.consecutiveFailures) packets in a row cannot be decoded: \(libavErrorText(status))",
                code: status)
        }
    }

    private func time(of frame: UnsafeMutablePointer<AVFrame>, in decoder: StreamDecoder) -> Double? {
        let timestamp = frame.pointee.best_effort_timestamp
        guard timestamp != vigil_av_nopts_value() else { return nil }
        let base = decoder.stream.pointee.time_base
        guard base.den > 0 else { return nil }
        return Double(timestamp) * Double(base.num) / Double(base.den) - origin
    }

    // MARK: Audio

    private func handleAudioFrame(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaReadError) {
        guard let decoder = audioDecoder, let info = audio else { return }
        let input = (format: frame.pointee.format, rate: frame.pointee.sample_rate, channels: frame.pointee.ch_layout.nb_channels)
        if resamplerInput == nil || resamplerInput! != input {
            if resampler != nil { try flushResampler() }
            try makeResampler(for: frame, outputRate: info.sampleRate)
            resamplerInput = input
        }
        let outputRate = Double(info.sampleRate)
        if let frameTime = time(of: frame, in: decoder) {
            let jumped = audioExpectedInputEnd.map { abs(frameTime - $0) > Self.audioResyncThreshold } ?? true
            if jumped {
                // The first samples, or a gap / overlap in the timestamps: count anew from here,
                // less what the resampler still holds.
                let buffered = Double(swr_get_delay(resampler, Int64(info.sampleRate))) / outputRate
                audioAnchorTime = frameTime - buffered
                audioAnchorSample = audioSamplesHanded
            }
            audioExpectedInputEnd = frameTime + Double(frame.pointee.nb_samples) / Double(max(1, input.rate))
        } else if let end = audioExpectedInputEnd {
            audioExpectedInputEnd = end + Double(frame.pointee.nb_samples) / Double(max(1, input.rate))
        }
        let capacity = Int(swr_get_out_samples(resampler, frame.pointee.nb_samples))
        guard capacity > 0 else { return }
        let inputPlanes = UnsafeMutableRawPointer(frame.pointee.extended_data).map {
            $0.assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        }
        try convertAudio(capacity: capacity, input: inputPlanes, inputCount: frame.pointee.nb_samples)
    }

    private func flushResampler() throws(MediaReadError) {
        while true {
            let capacity = Int(swr_get_out_samples(resampler, 0))
            guard capacity > 0 else { return }
            let produced = try convertAudio(capacity: capacity, input: nil, inputCount: 0)
            if produced == 0 { return }
        }
    }

    @discardableResult
    private func convertAudio(capacity: Int, input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, inputCount: Int32) throws(MediaReadError)
        -> Int
    {
        guard let info = audio else { return 0 }
        var samples = [Float](repeating: 0, count: capacity)
        let produced = samples.withUnsafeMutableBytes { raw -> Int32 in
            var output: UnsafeMutablePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return swr_convert(resampler, &output, Int32(capacity), input, inputCount)
        }
        if produced < 0 {
            throw MediaReadError(
                .decodeFailed, input: inputName, reason: "cannot resample the audio: \(libavErrorText(produced))", code: produced)
        }
        guard produced > 0 else { return 0 }
        samples.removeLast(capacity - Int(produced))
        let rate = Double(info.sampleRate)
        let time = (audioAnchorTime ?? 0) + Double(audioSamplesHanded - audioAnchorSample) / rate
        audioSamplesHanded += Int(produced)
        pending.append(.audio(MediaAudioChunk(time: time, sampleRate: info.sampleRate, samples: samples)))
        return Int(produced)
    }

    private func makeResampler(for frame: UnsafeMutablePointer<AVFrame>, outputRate: Int) throws(MediaReadError) {
        swr_free(&resampler)
        var inputLayout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels <= 0 {
            av_channel_layout_default(&inputLayout, max(1, frame.pointee.ch_layout.nb_channels))
        } else {
            _ = withUnsafePointer(to: frame.pointee.ch_layout) { av_channel_layout_copy(&inputLayout, $0) }
        }
        defer { av_channel_layout_uninit(&inputLayout) }
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, 1)
        defer { av_channel_layout_uninit(&outputLayout) }
        var status = swr_alloc_set_opts2(
            &resampler, &outputLayout, AV_SAMPLE_FMT_FLT, Int32(outputRate), &inputLayout, AVSampleFormat(rawValue: frame.pointee.format),
            frame.pointee.sample_rate, 0, nil)
        if status >= 0 { status = swr_init(resampler) }
        if status < 0 {
            swr_free(&resampler)
            throw MediaReadError(
                .decodeFailed, input: inputName,
                reason:
                    "cannot resample audio of \(frame.pointee.sample_rate) Hz, \(frame.pointee.ch_layout.nb_channels) channels: \(libavErrorText(status))",
                code: status)
        }
    }

    // MARK: Video

    private func handleVideoFrame(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaReadError) {
        guard let decoder = videoDecoder, let frameTime = time(of: frame, in: decoder) else { return }
        guard selector.select(time: frameTime) else { return }
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard width > 0, height > 0 else { return }
        var luma = [UInt8](repeating: 0, count: width * height)
        let pixelFormat = AVPixelFormat(rawValue: frame.pointee.format)
        if Self.carriesLumaPlane(pixelFormat) {
            let stride = Int(frame.pointee.linesize.0)
            guard let plane = frame.pointee.data.0 else { return }
            let expands = Self.isLimitedRange(frame, pixelFormat)
            luma.withUnsafeMutableBufferPointer { out in
                for row in 0..<height {
                    (out.baseAddress! + row * width).update(from: plane + row * stride, count: width)
                }
                if expands { Self.expandLimitedRange(out) }
            }
        } else {
            scaler = sws_getCachedContext(
                scaler, Int32(width), Int32(height), pixelFormat, Int32(width), Int32(height), AV_PIX_FMT_GRAY8, SWS_BILINEAR, nil, nil, nil
            )
            guard let scaler else {
                let name = av_get_pix_fmt_name(pixelFormat).map { String(cString: $0) } ?? "\(frame.pointee.format)"
                throw MediaReadError(.decodeFailed, input: inputName, reason: "cannot convert video pixel format \(name) to luma")
            }
            let status = luma.withUnsafeMutableBufferPointer { out -> Int32 in
                var destination: UnsafeMutablePointer<UInt8>? = out.baseAddress
                var destinationStride = Int32(width)
                return withUnsafePointer(to: frame.pointee.data) { data in
                    withUnsafePointer(to: frame.pointee.linesize) { strides in
                        data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                            strides.withMemoryRebound(to: Int32.self, capacity: 8) { lines in
                                sws_scale(scaler, planes, lines, 0, Int32(height), &destination, &destinationStride)
                            }
                        }
                    }
                }
            }
            if status < 0 {
                throw MediaReadError(
                    .decodeFailed, input: inputName, reason: "cannot convert a video frame to luma: \(libavErrorText(status))", code: status
                )
            }
        }
        pending.append(.video(MediaLumaFrame(index: videoFramesHanded, time: frameTime, width: width, height: height, luma: luma)))
        videoFramesHanded += 1
    }

    /// Whether `frame` codes luma in the limited ("TV", 16...235) range: Y'CbCr frames unless
    /// they say they use the full range (`AVCOL_RANGE_JPEG`, the `yuvj` formats); gray frames are full range.
    static func isLimitedRange(_ frame: UnsafeMutablePointer<AVFrame>, _ format: AVPixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format), descriptor.pointee.nb_components >= 3 else { return false }
        if frame.pointee.color_range == AVCOL_RANGE_JPEG { return false }
        let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? ""
        return !name.hasPrefix("yuvj")
    }

    /// Limited-range luma (16...235) to the full range (0...255), rounded and clamped, exactly as
    /// libswscale's conversion to `gray` does: the luma the motion detector sees is the same
    /// whether a frame comes from here, from `ffmpeg -pix_fmt gray` as y4m, or from a PNG.
    static let limitedToFullRange: [UInt8] = (0..<256).map { y in UInt8(max(0, min(255, (Double(y - 16) * 255 / 219).rounded()))) }

    /// Applies ``limitedToFullRange`` to `luma` in place.
    static func expandLimitedRange(_ luma: UnsafeMutableBufferPointer<UInt8>) {
        limitedToFullRange.withUnsafeBufferPointer { table in
            for i in luma.indices { luma[i] = table[Int(luma[i])] }
        }
    }

    /// Whether frames of `format` hold 8-bit luma as their first plane, one byte per pixel
    /// (planar and semi-planar Y'CbCr, gray), so that plane can be copied as it is.
    static func carriesLumaPlane(_ format: AVPixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        let flags = descriptor.pointee.flags
        let excluded =
            UInt64(AV_PIX_FMT_FLAG_RGB) | UInt64(AV_PIX_FMT_FLAG_PAL) | UInt64(AV_PIX_FMT_FLAG_BITSTREAM) | UInt64(AV_PIX_FMT_FLAG_HWACCEL)
        guard flags & excluded == 0, descriptor.pointee.nb_components >= 1 else { return false }
        let luma = descriptor.pointee.comp.0
        return luma.plane == 0 && luma.depth == 8 && luma.step == 1 && luma.offset == 0 && luma.shift == 0
    }
}

/// One opened decoder and its stream.
final class StreamDecoder {
    let stream: UnsafeMutablePointer<AVStream>
    let index: Int32
    let codecName: String
    var context: UnsafeMutablePointer<AVCodecContext>
    var consecutiveFailures = 0
    /// The latest end of a packet read, on the media timeline.
    var end = -Double.infinity

    struct OpenFailure: Error { var text: String }

    init(stream: UnsafeMutablePointer<AVStream>, index: Int32, codec: UnsafePointer<AVCodec>, codecName: String, threads: Int)
        throws(OpenFailure)
    {
        guard let context = avcodec_alloc_context3(codec) else { throw OpenFailure(text: "cannot allocate a decoder") }
        var status = avcodec_parameters_to_context(context, stream.pointee.codecpar)
        if status >= 0 {
            context.pointee.pkt_timebase = stream.pointee.time_base
            context.pointee.thread_count = Int32(threads)
            status = avcodec_open2(context, codec, nil)
        }
        if status < 0 {
            var optional: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&optional)
            throw OpenFailure(text: "cannot open the decoder: \(libavErrorText(status))")
        }
        self.stream = stream
        self.index = index
        self.codecName = codecName
        self.context = context
    }

    func free() {
        var optional: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&optional)
    }
}

/// libav's text for an error code ("Connection refused", "Invalid data found when processing input").
func libavErrorText(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
    return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Process-wide libav set-up, done once: network protocols on; libav's own log lines off
/// (failures reach the caller as ``MediaReadError``), unless `VIGIL_LIBAV_LOG` is set; and no
/// single libav allocation above ``largestAllocation``.
enum LibavSetup {
    /// The largest block libav may allocate at once: 256 MiB. libav sizes some buffers from what
    /// a file declares (a WAV file's INFO tag, up to 4 GiB, is allocated before it is read), so a
    /// few corrupt bytes could otherwise take gigabytes. The largest real need is a decoded
    /// frame's plane: 66 MiB for 8K video at 16 bits. A bigger request fails as libav's own
    /// out-of-memory case: the demuxer skips what it could not hold, or the read fails with a
    /// ``MediaReadError`` naming the input.
    static let largestAllocation = 256 << 20

    private static let done: Bool = {
        avformat_network_init()
        if getenv("VIGIL_LIBAV_LOG") == nil { av_log_set_level(AV_LOG_QUIET) }
        av_max_alloc(largestAllocation)
        return true
    }()

    static func once() { _ = done }
}

/// The deadline and cancel flag that libavformat's interrupt callback checks during blocking I/O.
final class InterruptState: Sendable {
    let cancelled = Atomic<Bool>(false)
    let deadline = Atomic<UInt64>(.max)
    let timedOut = Atomic<Bool>(false)

    func arm(seconds: Double) {
        timedOut.store(false, ordering: .relaxed)
        deadline.store(monotonicNanoseconds() &+ UInt64(max(0, seconds) * 1e9), ordering: .relaxed)
    }

    func disarm() { deadline.store(.max, ordering: .relaxed) }

    /// The typed error for libav status `status` after `doing` failed. For a local file or bytes in
    /// memory (`isNetwork` false), any failure but a missing or forbidden file is bad data.
    func error(_ status: Int32, input: String, doing: String, isNetwork: Bool = true) -> MediaReadError {
        if cancelled.load(ordering: .relaxed) {
            return MediaReadError(.cancelled, input: input, reason: "\(doing): cancelled", code: status)
        }
        if timedOut.load(ordering: .relaxed) || status == vigil_averror(ETIMEDOUT) {
            return MediaReadError(.timedOut, input: input, reason: "\(doing): timed out", code: status)
        }
        let kind: MediaReadError.Kind
        if status == vigil_averror_invaliddata() {
            kind = doing == "cannot read a packet" ? .readFailed : .invalidData
        } else if doing == "cannot read a packet" {
            kind = .readFailed
        } else if !isNetwork && ![ENOENT, EACCES, EPERM, EISDIR, ENOTDIR, EIO].contains(where: { vigil_averror($0) == status }) {
            kind = .invalidData
        } else {
            kind = .unreadable
        }
        return MediaReadError(kind, input: input, reason: "\(doing): \(libavErrorText(status))", code: status)
    }
}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

private let interruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    let state = Unmanaged<InterruptState>.fromOpaque(opaque).takeUnretainedValue()
    if state.cancelled.load(ordering: .relaxed) { return 1 }
    if monotonicNanoseconds() > state.deadline.load(ordering: .relaxed) {
        state.timedOut.store(true, ordering: .relaxed)
        return 1
    }
    return 0
}

/// Bytes that a custom AVIOContext reads (the memory input of ``MediaContainerReader/init(bytes:name:options:)``).
final class MemoryInput {
    let bytes: [UInt8]
    var position = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

private let memoryRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
    guard let opaque, let buffer, size > 0 else { return vigil_averror_eof() }
    let input = Unmanaged<MemoryInput>.fromOpaque(opaque).takeUnretainedValue()
    let count = min(Int(size), input.bytes.count - input.position)
    guard count > 0 else { return vigil_averror_eof() }
    input.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + input.position, count: count) }
    input.position += count
    return Int32(count)
}

private let memorySeek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return -1 }
    let input = Unmanaged<MemoryInput>.fromOpaque(opaque).takeUnretainedValue()
    if whence & AVSEEK_SIZE != 0 { return Int64(input.bytes.count) }
    let base: Int64
    switch whence & ~AVSEEK_FORCE {
    case SEEK_SET: base = 0
    case SEEK_CUR: base = Int64(input.position)
    case SEEK_END: base = Int64(input.bytes.count)
    default: return -1
    }
    let (target, overflow) = base.addingReportingOverflow(offset)
    guard !overflow, target >= 0, target <= Int64(input.bytes.count) else { return -1 }
    input.position = Int(target)
    return target
}
