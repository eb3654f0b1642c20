import FoundationEssentials
import TerminalUI
import UploadModel

/// The whole state of the interactive interface, in the Elm style: changed only by
/// ``update(_:)``, drawn by ``AppView/render(_:size:)``.
public struct AppState: Hashable, Sendable {
    /// The focused pane.
    public var focus: Pane = .files
    /// The file browser.
    public var browser: BrowserState
    /// The form.
    public var form: FormState
    /// The upload queue.
    public var queue: QueueState
    /// The screen size.
    public var size: Size
    /// Whether the `?` help screen is open.
    public var showsHelp = false
    /// Rows of the help screen scrolled past (when it is taller than the screen).
    public var helpScroll = 0
    /// The Form's profile picker, while it is open.
    public var profilePicker: ProfilePicker?
    /// The profile last loaded into the form: saving keeps its `${NAME}` references.
    public internal(set) var loadedProfile: ProfileChoice?
    /// The name being typed for "save the form as a profile", while it is asked.
    public var profileNameEditor: LineEditor?
    /// The request (`v`) or curl command (`y`) shown over the pane, while it is open.
    public var requestView: RequestView?
    /// The question waiting for `y`/`n`, if any.
    public var confirmation: Confirmation?
    /// A one-off message for the status line (cleared by the next key, or after
    /// ``noticeLifetime``).
    public var notice: String?
    /// When the notice shown was set (the clock's reading then), if the clock had been read.
    public internal(set) var noticeSince: SchedulerInstant?
    /// How long a notice replaces the URL in the status line.
    public static let noticeLifetime = Duration.seconds(5)
    /// The home directory, for `~`.
    public var homeDirectory: String
    /// The time zone modification times are shown in.
    public var timeZone: TimeZone
    /// The latest reading of the upload scheduler's monotonic clock, if any yet.
    public var now: SchedulerInstant?
    /// Whether the interface has decided to quit.
    public var isQuitting = false
    /// Whether the interface quits once the uploads in flight have finished (nothing new
    /// starts meanwhile).
    public var quitsWhenInFlightFinish = false
    /// Whether the queue was paused when the quit was asked for (the question, and the wait
    /// for the uploads in flight, pause it): Esc, staying after all, goes back to this.
    public var pausedBeforeQuitWait = false
    /// The answer the keys typed meanwhile wait for, if any (see ``AwaitedResult``).
    public internal(set) var awaited: AwaitedResult?
    /// Keys typed while ``awaited`` is set, oldest first: applied, in order, once it comes.
    public internal(set) var typeAhead: [KeyEvent] = []

    /// Creates the initial state.
    ///
    /// - Parameters:
    ///   - directory: The folder the browser opens in (absolute).
    ///   - settings: The form's initial settings.
    ///   - homeDirectory: The home directory, for `~`.
    ///   - size: The screen size.
    ///   - timeZone: The time zone for modification times.
    public init(directory: String, settings: FormSettings, homeDirectory: String, size: Size,
                timeZone: TimeZone = .current) {
        self.browser = BrowserState(directory: directory)
        self.form = FormState(settings: settings)
        self.queue = QueueState()
        self.homeDirectory = homeDirectory
        self.size = size
        self.timeZone = timeZone
        applyLayout()
    }

    /// Starts the interface: reads the first directory; keys typed before it is read wait for it.
    ///
    /// - Returns: The commands to run first.
    public mutating func start() -> [AppCommand] {
        awaited = .listing(browser.directory)
        return [.loadDirectory(browser.directory, focusName: nil)]
    }

    /// Gives every list its viewport height for the current size.
    mutating func applyLayout() {
        let layout = AppLayout(size: size)
        browser.scroll.setViewportHeight(layout.listHeight)
        queue.scroll.setViewportHeight(layout.listHeight)
        form.scroll.setViewportHeight(layout.body.height)
    }
}
