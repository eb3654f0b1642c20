import FoundationEssentials

/// The three HTTP-date forms of RFC 9110 §5.6.7, read as GMT: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime's (`Sun Nov  6 08:49:37 1994`).
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Parses an HTTP-date.
    ///
    /// - Parameter text: The date text (names of days and months in any case).
    /// - Returns: The date, or nil when it is none of the three forms or names no real time.
    static func parse(_ text: String) -> Date? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map { $0.lowercased() }
        if words.count == 6, words[0].hasSuffix(","), days.contains(String(words[0].dropLast())), words[5] == "gmt",
            let day = Int(words[1]), words[1].count == 2, let month = months.firstIndex(of: words[2]),
            let year = Int(words[3]), words[3].count == 4
        {
            return date(year: year, month: month + 1, day: day, time: words[4])
        }
        if words.count == 4, words[0].hasSuffix(","), longDays.contains(String(words[0].dropLast())), words[3] == "gmt" {
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let day = Int(parts[0]),
                let month = months.firstIndex(of: String(parts[1])), let shortYear = Int(parts[2])
            else { return nil }
            // RFC 9110: a two-digit year more than 50 years ahead is in the past century.
            return date(year: shortYear < 70 ? 2000 + shortYear : 1900 + shortYear, month: month + 1, day: day, time: words[2])
        }
        if words.count == 5, days.contains(words[0]), let month = months.firstIndex(of: words[1]),
            let day = Int(words[2]), (1...2).contains(words[2].count), let year = Int(words[4]), words[4].count == 4
        {
            return date(year: year, month: month + 1, day: day, time: words[3])
        }
        return nil
    }

    /// The moment `year-month-day time` GMT, when the day exists and `time` is `HH:MM:SS`.
    private static func date(year: Int, month: Int, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second),
            (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
    /// `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
